import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { useToast } from "../ui/toast";
import {
  createAnnotation,
  fetchAnnotations,
  replyToAnnotation,
  setAnnotationResolved,
} from "./annotations-api";
import type { Mark, NewMark, ReviewTarget } from "./marks-api";

/** A new mark being placed: where, before its comment is written. */
export type Draft = Pick<NewMark, "page" | "x" | "y" | "width" | "height">;

/** What the page (pins, boxes) and the marks panel share. */
export interface MarksState {
  target: ReviewTarget;
  marks: Mark[] | undefined;
  isPending: boolean;
  isError: boolean;
  /** "Add mark" is on: a click places a point, a drag a box. */
  adding: boolean;
  setAdding: (adding: boolean) => void;
  draft: Draft | null;
  /** `keyboard`: placed with Enter, so the focus stays on it (arrow keys move it). */
  setDraft: (draft: Draft | null, keyboard?: boolean) => void;
  draftByKeyboard: boolean;
  /** The mark whose thread is open (and which is highlighted on the page). */
  selectedId: string | null;
  select: (id: string | null) => void;
  save: (comment: string, internal: boolean) => void;
  saving: boolean;
  reply: (id: string, content: string, done: () => void) => void;
  replying: boolean;
  setResolved: (id: string, resolved: boolean) => void;
  resolving: boolean;
}

/** Puts the server's answer for one mark into the list (the refetch follows the event). */
function placeMark(marks: Mark[] | undefined, mark: Mark): Mark[] {
  if (!marks) return [mark];
  return marks.some((known) => known.id === mark.id)
    ? marks.map((known) => (known.id === mark.id ? mark : known))
    : [...marks, mark];
}

/**
 * The marks of one file version: the list (kept live by annotations_changed, whose refresh of
 * the conversation's key covers it), adding, replying, resolving and reopening.
 */
export function useMarks(target: ReviewTarget | null): MarksState | null {
  const toast = useToast();
  const { t } = useTranslation("conversation");
  const queryClient = useQueryClient();
  const messageId = target?.messageId ?? "";
  const version = target?.version ?? 0;
  const queryKey = queryKeys.annotations(target?.clientId ?? "", messageId, version);
  const { data, isPending, isError } = useQuery({
    queryKey,
    queryFn: () => fetchAnnotations(messageId, version),
    enabled: target !== null,
  });
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [draftByKeyboard, setDraftByKeyboard] = useState(false);
  const [selectedId, select] = useState<string | null>(null);

  const failed = (title: string) => (error: unknown) =>
    toast({
      title,
      description: serverMessage(error, t("Please try again")),
      variant: "destructive",
    });
  const answered = (mark: Mark) => {
    queryClient.setQueryData<Mark[]>(queryKey, (marks) => placeMark(marks, mark));
    void queryClient.invalidateQueries({ queryKey });
  };

  const create = useMutation({
    mutationFn: (mark: NewMark) => createAnnotation(messageId, version, mark),
    onSuccess: (mark) => {
      answered(mark);
      setDraft(null);
      setAdding(false);
      select(mark.id);
    },
    onError: failed(t("The mark couldn't be saved")),
  });
  const answer = useMutation({
    mutationFn: ({ id, content }: { id: string; content: string; done: () => void }) =>
      replyToAnnotation(id, { content }),
    onSuccess: (mark, { done }) => {
      answered(mark);
      done();
    },
    onError: failed(t("The reply couldn't be sent")),
  });
  const resolve = useMutation({
    mutationFn: ({ id, resolved }: { id: string; resolved: boolean }) =>
      setAnnotationResolved(id, resolved),
    onSuccess: answered,
    onError: failed(t("The mark couldn't be changed")),
  });

  // Turning the mode off drops a mark not yet saved.
  useEffect(() => {
    if (!adding) setDraft(null);
  }, [adding]);

  if (!target) return null;
  return {
    target,
    marks: data,
    isPending,
    isError,
    adding,
    setAdding,
    draft,
    setDraft: (next, keyboard = false) => {
      setDraft(next);
      setDraftByKeyboard(keyboard);
      if (next) select(null);
    },
    draftByKeyboard,
    selectedId,
    select,
    save: (comment, internal) => {
      if (!draft) return;
      const { page, x, y, width, height } = draft;
      create.mutate({
        page,
        x,
        y,
        width,
        height,
        comment,
        ...(internal ? { visibility: "internal" } : {}),
      });
    },
    saving: create.isPending,
    reply: (id, content, done) => answer.mutate({ id, content, done }),
    replying: answer.isPending,
    setResolved: (id, resolved) => resolve.mutate({ id, resolved }),
    resolving: resolve.isPending,
  };
}
