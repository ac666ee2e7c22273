import type { SnippetPart } from "../api/search";

/** A result's text with its matches marked. Text nodes only: nothing in it is markup. */
export function Snippet({ parts }: { parts: SnippetPart[] }) {
  return (
    <>
      {parts.map((part, index) =>
        part.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts never move
          <mark key={index}>{part.text}</mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts never move
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}
