/**
 * The header block mail programs write above a quoted mail ("From: … Sent: … To: …
 * Subject: …": Outlook, Windows Mail, BlackBerry, Samsung, Yahoo, in their users' languages).
 * The reply parser only knows a From line with an address in brackets; Windows Mail, Outlook
 * through Exchange and BlackBerry name the sender without one.
 */
const FROM_LABELS = [
  "From",
  "Von",
  "De",
  "Da",
  "Van",
  "Från",
  "Fra",
  "Od",
  "От",
  "Від",
  "Lähettäjä",
  "Feladó",
  "Kimden",
  "发件人",
  "發件人",
  "寄件者",
  "差出人",
  "보낸 사람",
];

const OTHER_LABELS = [
  // en
  "Sent",
  "Date",
  "To",
  "Cc",
  "Subject",
  "Reply-To",
  // de, fr, es, it, pt, nl, sv, da/no, pl
  "Gesendet",
  "Datum",
  "An",
  "Betreff",
  "Envoyé",
  "Envoyé le",
  "À",
  "Objet",
  "Enviado",
  "Enviada em",
  "Fecha",
  "Para",
  "Asunto",
  "Inviato",
  "Data",
  "A",
  "Oggetto",
  "Assunto",
  "Verzonden",
  "Aan",
  "Onderwerp",
  "Skickat",
  "Till",
  "Ämne",
  "Sendt",
  "Til",
  "Emne",
  "Wysłane",
  "Do",
  "Temat",
  // ru, uk
  "Отправлено",
  "Дата",
  "Кому",
  "Тема",
  "Надіслано",
  // zh, ja, ko
  "发送时间",
  "發送時間",
  "寄件日期",
  "日期",
  "收件人",
  "收件者",
  "主题",
  "主題",
  "主旨",
  "送信日時",
  "宛先",
  "件名",
  "날짜",
  "보낸 날짜",
  "받는 사람",
  "제목",
];

const labelPattern = (labels: string[]) =>
  new RegExp(`^\\s*\\*?(?:${labels.join("|")})\\*?\\s*[:：]`, "iu");
const FROM_LINE = labelPattern(FROM_LABELS);
const HEADER_LINE = labelPattern([...FROM_LABELS, ...OTHER_LABELS]);
/** The address of a From split over two lines ("From: Name\n<address>"). */
const CONTINUATION = /^\s*[<[].*[>\]]\s*$/;
/** "-----Original Message-----", "-------- Original message --------", Outlook's rule. */
const SEPARATOR = /^\s*(?:[-_=]{3,}.*[-_=]{3,}|[-_=]{5,})\s*$/;

/** The lines above the first quoted header block (and the separator over it), or all. */
export function cutAtHeaderBlock(lines: string[]): string[] {
  for (let start = 0; start < lines.length; start++) {
    if (!HEADER_LINE.test(lines[start]!)) continue;
    let labels = 0;
    let from = false;
    for (let i = start; i < lines.length; i++) {
      const line = lines[i]!;
      if (HEADER_LINE.test(line)) {
        labels++;
        from ||= FROM_LINE.test(line);
      } else if (!(i > start && CONTINUATION.test(line))) break;
    }
    if (!from || labels < 3) continue;
    let end = start;
    while (end > 0 && (SEPARATOR.test(lines[end - 1]!) || !lines[end - 1]!.trim())) end--;
    return lines.slice(0, end);
  }
  return lines;
}

/**
 * Lines left at the end once the quote below them is gone: an attribution ("15. marts 2017
 * kl. 11.00 skrev John Doe <john@example.com>:", mail.ru's "… от Name <address>:") or a
 * separator. An attribution ends with a colon and names an address.
 */
export function withoutTrailingAttribution(lines: string[]): string[] {
  const kept = [...lines];
  for (;;) {
    const last = kept.at(-1);
    if (last === undefined) return kept;
    const line = last.trim();
    const attribution = /[:：]$/.test(line) && /\S@\S/.test(line);
    if (line && !attribution && !SEPARATOR.test(line)) return kept;
    kept.pop();
  }
}
