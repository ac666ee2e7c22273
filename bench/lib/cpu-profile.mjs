#!/usr/bin/env node
// Reads a `.cpuprofile` (node --cpu-prof; for the server: BENCH_SERVER_NODE_ARGS="--cpu-prof
// --cpu-prof-dir=/tmp/prof") and prints the functions by self time and, for those whose
// location matches FILTER (default: the server bundle), by inclusive time (each sample counted
// once per function on its stack). Shares are of all samples, idle included; the profiler
// counts wall time, so a process preempted inside a system call keeps its samples there.
//   node bench/lib/cpu-profile.mjs <file.cpuprofile> [FILTER regex] [TOP]
import { readFileSync } from "node:fs";

export function analyse(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const timeById = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    timeById.set(id, (timeById.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const name = (node) => {
    const frame = node.callFrame;
    const where = frame.url
      .replace(/^.*\/node_modules\//, "node_modules/")
      .replace(/^file:\/\/.*\/dist\//, "dist/");
    return `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
  };
  let total = 0;
  const self = new Map();
  const inclusive = new Map();
  for (const [id, time] of timeById) {
    total += time;
    const key = name(byId.get(id));
    self.set(key, (self.get(key) ?? 0) + time);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = name(byId.get(at));
      if (seen.has(frame)) continue;
      seen.add(frame);
      inclusive.set(frame, (inclusive.get(frame) ?? 0) + time);
    }
  }
  const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
  return { totalUs: total, self: sorted(self), inclusive: sorted(inclusive) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, filter = "dist/server/", top = "40"] = process.argv.slice(2);
  if (!file) {
    console.error("usage: node bench/lib/cpu-profile.mjs <file.cpuprofile> [FILTER regex] [TOP]");
    process.exit(2);
  }
  const result = analyse(JSON.parse(readFileSync(file, "utf8")));
  const share = (time) => `${((time / result.totalUs) * 100).toFixed(1).padStart(5)}%`;
  console.log(`${(result.totalUs / 1e6).toFixed(2)} s sampled`);
  console.log("--- self time");
  for (const [key, time] of result.self.slice(0, Number(top))) console.log(share(time), key);
  console.log(`--- inclusive time, ${filter}`);
  const pattern = new RegExp(filter);
  for (const [key, time] of result.inclusive
    .filter(([key]) => pattern.test(key))
    .slice(0, Number(top)))
    console.log(share(time), key);
}
