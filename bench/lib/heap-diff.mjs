#!/usr/bin/env node
// Compares two V8 heap snapshots (node --heapsnapshot-signal=SIGUSR2; realtime-idle takes them
// with BENCH_IDLE_HEAPSNAPSHOT=<dir>) by what the heap holds: for each kind of object (node
// type and constructor or closure name), how many more there are in the second and how many
// more bytes they take (self size), biggest first; per item when PER is given (e.g. sockets).
//   node bench/lib/heap-diff.mjs <before.heapsnapshot> <after.heapsnapshot> [PER] [TOP]
import { readFileSync } from "node:fs";

export function heapSummary(file) {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(file, "utf8"));
  const fields = snapshot.meta.node_fields;
  const types = snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const byKind = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    const size = nodes[i + sizeAt];
    total += size;
    // Strings and numbers are named by their value: group them by type only.
    const name =
      type === "string" ||
      type === "concatenated string" ||
      type === "sliced string" ||
      type === "number"
        ? ""
        : strings[nodes[i + nameAt]].slice(0, 80);
    const kind = `${type} ${name}`.trim();
    const entry = byKind.get(kind) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += size;
    byKind.set(kind, entry);
  }
  return { total, byKind };
}

export function heapDiff(before, after) {
  const kinds = new Set([...before.byKind.keys(), ...after.byKind.keys()]);
  const rows = [];
  for (const kind of kinds) {
    const a = before.byKind.get(kind) ?? { count: 0, bytes: 0 };
    const b = after.byKind.get(kind) ?? { count: 0, bytes: 0 };
    rows.push({ kind, count: b.count - a.count, bytes: b.bytes - a.bytes });
  }
  rows.sort((x, y) => y.bytes - x.bytes);
  return { totalBytes: after.total - before.total, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [beforeFile, afterFile, perArg, topArg] = process.argv.slice(2);
  const per = Number(perArg ?? 1) || 1;
  const top = Number(topArg ?? 30);
  const diff = heapDiff(heapSummary(beforeFile), heapSummary(afterFile));
  const kb = (bytes) => (bytes / 1024 / per).toFixed(per > 1 ? 2 : 0);
  console.log(`heap growth ${kb(diff.totalBytes)} KB${per > 1 ? ` per item (${per})` : ""}`);
  for (const row of diff.rows.slice(0, top)) {
    console.log(
      `${kb(row.bytes).padStart(10)} KB  ${(row.count / per).toFixed(2).padStart(8)}  ${row.kind}`,
    );
  }
}
