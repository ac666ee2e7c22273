import type { Knex } from "knex";
import type { OpenMark } from "../mail/notification-mails";

/**
 * The open marks that both sides see (issue 27) on each of file versions `messageIds`, by
 * version, in the order the viewer numbers them (every mark the client sees, oldest first).
 */
export async function openMarksOf(
  db: Knex,
  messageIds: readonly string[],
): Promise<Map<string, OpenMark[]>> {
  const byVersion = new Map<string, OpenMark[]>();
  if (messageIds.length === 0) return byVersion;
  const found: { rows: (OpenMark & { messageId: string; number: number | string })[] } =
    await db.raw(
      `select x."messageId", x.number, x.page, x.comment
         from (select n.message_id as "messageId", n.page, n.comment, n.resolved_at,
                      row_number() over (partition by n.message_id order by n.created_at, n.id) as number
                 from annotations n
                where n.message_id in (select value::uuid from json_array_elements_text(?::json))
                  and n.visibility = 'client') x
        where x.resolved_at is null
        order by x."messageId", x.number`,
      [JSON.stringify(messageIds)],
    );
  for (const row of found.rows) {
    const list = byVersion.get(row.messageId) ?? [];
    list.push({ number: Number(row.number), page: row.page, comment: row.comment });
    byVersion.set(row.messageId, list);
  }
  return byVersion;
}
