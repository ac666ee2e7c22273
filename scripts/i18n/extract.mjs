// npm run i18n:extract: writes every key found in the code into shared/locales (English
// filled in, other languages empty for a translator). --check: changes nothing and fails
// when a catalog lacks a key of the code or keeps one the code no longer has.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const check = process.argv.includes("--check");
const parser = path.join(root, "node_modules/i18next-parser/bin/cli.js");

for (const name of ["web", "errors", "emails"]) {
  const args = [parser, "--config", path.join(here, `${name}.config.mjs`), "--silent"];
  if (check) args.push("--fail-on-update");
  try {
    execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  } catch {
    console.error(
      `i18n: the ${name} catalogs do not match the code. Run \`npm run i18n:extract\`, then translate the new keys.`,
    );
    process.exit(1);
  }
}
