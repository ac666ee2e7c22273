import { type DragEvent, useState } from "react";

/**
 * A file dragged onto the conversation: `dropping` while one is over it (when `enabled`), and
 * `onFile` with the first file dropped.
 */
export function useFileDrop(enabled: boolean, onFile: (file: File) => void) {
  const [dropping, setDropping] = useState(false);
  const onDragOver = (event: DragEvent) => {
    if (!enabled || !event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setDropping(true);
  };
  const onDragLeave = (event: DragEvent) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
  };
  const onDrop = (event: DragEvent) => {
    if (!dropping) return;
    event.preventDefault();
    setDropping(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };
  return {
    dropping,
    handlers: { onDragEnter: onDragOver, onDragOver, onDragLeave, onDrop },
  };
}
