// npm run i18n:check (in .ci/run): fails when the code has a key that a catalog lacks
// (extract.mjs --check), when a language leaves a key untranslated, or when a translation
// drops or invents a placeholder ({{name}}) or a Trans tag (<1>…</1>).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LOCALES } from "./catalog-options.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const locales = path.join(root, "shared/locales");

execFileSync(process.execPath, [path.join(here, "extract.mjs"), "--check"], {
  cwd: root,
  stdio: "inherit",
});

const read = (locale, file) => JSON.parse(readFileSync(path.join(locales, locale, file), "utf8"));
const tokens = (text) =>
  [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}|<\/?(\d+)>/g)]
    .map((m) => m[0].replace(/\s+/g, ""))
    .sort();
const pluralBase = (key) => key.replace(/_(zero|one|two|few|many|other)$/, "");

const problems = [];
for (const file of readdirSync(path.join(locales, "en")).filter((name) => name.endsWith(".json"))) {
  const english = read("en", file);
  const bases = new Set(Object.keys(english).map(pluralBase));
  for (const locale of LOCALES) {
    const catalog = read(locale, file);
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    for (const key of Object.keys(catalog)) {
      const value = catalog[key];
      if (typeof value !== "string" || !value.trim()) {
        problems.push(`${locale}/${file}: "${key}" is not translated`);
        continue;
      }
      const base = pluralBase(key);
      const source = english[key] ?? english[`${base}_other`] ?? base;
      const expected = tokens(source).filter((token) => !token.startsWith("{{count"));
      const found = tokens(value).filter((token) => !token.startsWith("{{count"));
      if (expected.join() !== found.join())
        problems.push(
          `${locale}/${file}: "${key}" has ${found.join(" ") || "no placeholders"}, English has ${expected.join(" ") || "none"}`,
        );
    }
    for (const base of bases) {
      const plural = Object.hasOwn(english, `${base}_other`);
      if (!plural && !Object.hasOwn(catalog, base))
        problems.push(`${locale}/${file}: "${base}" is missing`);
      if (plural)
        for (const category of categories)
          if (!Object.hasOwn(catalog, `${base}_${category}`))
            problems.push(`${locale}/${file}: "${base}_${category}" is missing`);
    }
  }
}
if (problems.length) {
  console.error(
    `i18n: ${problems.length} problems in shared/locales:\n${problems.slice(0, 200).join("\n")}`,
  );
  process.exit(1);
}
console.log("i18n: every key is translated in every language");
