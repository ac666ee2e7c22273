/**
 * A translated sentence whose <strong>…</strong> parts show in bold: plain splitting, as
 * react-i18next's Trans would bring its HTML parser into the portal's first load (issue 12's
 * budget). The translators keep the tags around the same words' translation.
 */
export function StrongText({ text }: { text: string }) {
  const parts = text.split(/<strong>(.*?)<\/strong>/);
  return (
    <>
      {parts.map((part, index) =>
        // Odd parts are the bold ones; the order of the parts never changes.
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence
        index % 2 ? <strong key={index}>{part}</strong> : part,
      )}
    </>
  );
}
