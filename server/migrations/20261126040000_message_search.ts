import type { Knex } from "knex";

/**
 * Full-text search over message text and file names (GET /api/search), the same on PGlite
 * and PostgreSQL.
 *
 * - Text configuration 'simple': lower-casing only, no stemming and no stop words. Messages
 *   are in any language and full of names (people, projects, files), which an English stemmer
 *   would mangle ("Mattis" -> "matti") and whose stop words ("the", "it") are still words a
 *   user may look for in a phrase.
 * - search_text() turns every ASCII character that is not a letter or a digit, and common
 *   Unicode punctuation, into a space before parsing, so that "Invoice_2026-7.pdf",
 *   "e-mail", "don't" or "jane@example.com" are words ("invoice", "2026", "7", "pdf") as the
 *   user types them, not one token of PostgreSQL's file, email or URL kinds. (The class is
 *   written out rather than [[:alnum:]]: under the databases' C collation that class is ASCII
 *   only and would cut "café" apart.) shared/search-text.ts splits the same way in JS, for
 *   the snippets.
 * - Stored generated tsvector columns with GIN indexes: written with the row, never stale.
 * - search_query() builds the tsquery from what the user typed, never by handing their text
 *   to to_tsquery's syntax: each word becomes a quoted lexeme (normalized by the same
 *   configuration), words are ANDed, a "quoted phrase" is a phrase (<->), and the last word
 *   typed matches as a prefix (search as you type). Nothing the user types is an operator.
 * - messages(seq): the initial migration's unique() on the bigserial was never created (knex
 *   drops it on an increments column), and search orders by seq across conversations; a common
 *   word then walks seq backwards and stops after a page. messages(file_id): a matching file
 *   reaches its message through it.
 */
const SEPARATORS =
  "[\\u0001-\\u002f\\u003a-\\u0040\\u005b-\\u0060\\u007b-\\u007f\\u00a0\\u00a1\\u00ab\\u00b7\\u00bb\\u00bf\\u2010-\\u2027\\u2030-\\u205e\\u3000-\\u3003]+";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function search_text(input text) returns text
      language sql immutable strict parallel safe
      as $$ select regexp_replace(input, '${SEPARATORS}', ' ', 'g') $$`);
  // The words of `input` as lexemes, in order (a word the parser splits gives several).
  await knex.raw(`
    create function search_words(input text) returns text[]
      language sql immutable strict parallel safe
      as $$
        select coalesce(array_agg(lexeme order by w.n, lexeme), '{}')
          from regexp_split_to_table(search_text(input), '\\s+') with ordinality as w(word, n)
          cross join lateral unnest(tsvector_to_array(to_tsvector('simple', w.word))) as lexeme
      $$`);
  await knex.raw(`
    create function search_query(input text) returns tsquery
      language plpgsql immutable strict parallel safe
      as $$
      declare
        -- Odd segments lie outside double quotes, even ones inside (a phrase).
        segments text[] := string_to_array(left(input, 200), '"');
        last_segment int := coalesce(array_length(segments, 1), 0);
        terms text[] := '{}';
        words text[];
        quoted text[];
      begin
        for i in 1 .. last_segment loop
          words := search_words(segments[i]);
          continue when cardinality(words) = 0;
          select array_agg('''' || replace(word, '''', '''''') || '''' order by n)
            into quoted from unnest(words) with ordinality as u(word, n);
          -- The word being typed (the input does not end with a closing quote) is a prefix.
          if i = last_segment then
            quoted[cardinality(quoted)] := quoted[cardinality(quoted)] || ':*';
          end if;
          if i % 2 = 0 then
            terms := terms || ('(' || array_to_string(quoted, ' <-> ') || ')');
          else
            terms := terms || quoted;
          end if;
        end loop;
        if cardinality(terms) = 0 then
          return null;
        end if;
        return array_to_string(terms, ' & ')::tsquery;
      end
      $$`);

  await knex.raw(`
    alter table messages add column search_vector tsvector
      generated always as (to_tsvector('simple', search_text(coalesce(content, '')))) stored`);
  await knex.raw("create index messages_search_vector on messages using gin (search_vector)");
  await knex.raw(`
    alter table files add column search_vector tsvector
      generated always as (to_tsvector('simple', search_text(original_name))) stored`);
  await knex.raw("create index files_search_vector on files using gin (search_vector)");
  await knex.raw("create index if not exists messages_seq_index on messages (seq)");
  await knex.raw("create index if not exists messages_file_id_index on messages (file_id)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists messages_file_id_index");
  await knex.raw("drop index if exists messages_seq_index");
  await knex.raw("alter table files drop column if exists search_vector");
  await knex.raw("alter table messages drop column if exists search_vector");
  await knex.raw("drop function if exists search_query(text)");
  await knex.raw("drop function if exists search_words(text)");
  await knex.raw("drop function if exists search_text(text)");
}
