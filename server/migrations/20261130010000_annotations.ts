import type { Knex } from "knex";

/**
 * Issue 27, review marks: a mark is a point or a rectangle on one page of one version of a file
 * sent for approval (the version's message), with a comment, and a thread of replies. Places
 * are fractions of the page or image, so they hold at every zoom. A new version gets copies of
 * the previous version's open marks (`carried_from_id`: "check these"). An author who is gone
 * leaves the mark with their name (`author_name`, as written).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("annotations", (t) => {
    t.uuid("id").primary();
    t.uuid("client_id").notNullable().references("clients.id").onDelete("CASCADE");
    t.uuid("message_id").notNullable().references("messages.id").onDelete("CASCADE");
    t.integer("page").notNullable();
    t.double("x").notNullable();
    t.double("y").notNullable();
    t.double("width").notNullable();
    t.double("height").notNullable();
    t.text("comment").notNullable();
    t.uuid("author_id").references("users.id").onDelete("SET NULL");
    t.string("author_name", 200).notNullable();
    t.string("author_side", 10).notNullable();
    t.string("visibility", 10).notNullable().defaultTo("client");
    t.timestamp("resolved_at", { useTz: true });
    t.uuid("resolved_by").references("users.id").onDelete("SET NULL");
    t.string("resolved_by_name", 200);
    t.uuid("carried_from_id").references("annotations.id").onDelete("SET NULL");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["message_id", "created_at"]);
    t.index(["client_id"]);
  });
  await knex.raw(
    "alter table annotations add constraint annotations_place check (page >= 1 and x >= 0 and y >= 0 and width >= 0 and height >= 0 and x + width <= 1.000001 and y + height <= 1.000001)",
  );
  await knex.raw(
    "alter table annotations add constraint annotations_visibility check (visibility in ('client', 'internal'))",
  );
  // "3 open marks" on a file: counted for every file message a page shows.
  await knex.raw(
    "create index annotations_open on annotations (message_id) where resolved_at is null",
  );
  await knex.schema.createTable("annotation_replies", (t) => {
    t.uuid("id").primary();
    t.uuid("annotation_id").notNullable().references("annotations.id").onDelete("CASCADE");
    t.text("content").notNullable();
    t.uuid("author_id").references("users.id").onDelete("SET NULL");
    t.string("author_name", 200).notNullable();
    t.string("author_side", 10).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["annotation_id", "created_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("annotation_replies");
  await knex.schema.dropTableIfExists("annotations");
}
