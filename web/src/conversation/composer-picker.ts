import type { KeyboardEvent, ReactNode, RefObject, TextareaHTMLAttributes } from "react";

/** What a picker of the composer (the staff's saved replies, issue 28) works with. */
export interface ComposerPickerInput {
  clientId: string;
  text: string;
  setText: (text: string) => void;
  field: RefObject<HTMLTextAreaElement | null>;
}

/** A picker that opens from the composer's field (combobox pattern: the field keeps the focus). */
export interface ComposerPicker {
  /** The field's combobox attributes, and the handlers that follow its caret. */
  fieldProps: TextareaHTMLAttributes<HTMLTextAreaElement>;
  /** Sees each key first; true when the key was the picker's (the composer leaves it). */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** Shown above the field while open; null otherwise. */
  popup: ReactNode;
  /** Said to screen readers with the field's own hint. */
  hint?: string;
}

/** A hook, called once per render by the composer that is given it. */
export type UseComposerPicker = (input: ComposerPickerInput) => ComposerPicker;

const NO_PICKER: ComposerPicker = { fieldProps: {}, onKeyDown: () => false, popup: null };

/** The portal's composer, and any without a picker. */
export const useNoPicker: UseComposerPicker = () => NO_PICKER;
