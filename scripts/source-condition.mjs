// The `strata-source` export condition, kept out of the published package.json: npm runs
// `remove` before it packs (prepack, on `npm pack` and `npm publish`) and `restore` after
// (postpack). In this repository the condition points `effect-strata`, `effect-strata/oauth`, ... at
// src/*.ts, for `npm start`, the examples and vitest; the package ships no src/.
//
// Each entry's source is its ESM build's path without `dist/` and with `.ts` for `.js`
// (`./dist/src/index.js` -> `./src/index.ts`): `remove` checks that rule, so `restore` puts
// the condition back from the build paths alone, with no copy to keep. If a pack is
// interrupted between the two, `node scripts/source-condition.mjs restore` undoes it.

import { readFileSync, writeFileSync } from "node:fs";

const CONDITION = "strata-source";
const file = new URL("../package.json", import.meta.url);
const pkg = JSON.parse(readFileSync(file, "utf8"));

/** The source file of an entry, from the path of its ESM build. */
const sourceOf = (entry) =>
  entry.import.default.replace(/^\.\/dist\//, "./").replace(/\.js$/, ".ts");

const action = process.argv[2];
if (action === "remove") {
  for (const [name, entry] of Object.entries(pkg.exports)) {
    if (entry[CONDITION] === sourceOf(entry)) {
      delete entry[CONDITION];
      continue;
    }
    console.error(
      `source-condition: exports["${name}"]["${CONDITION}"] is ${entry[CONDITION]}, ` +
        `not ${sourceOf(entry)}: restore could not put it back`,
    );
    process.exit(1);
  }
} else if (action === "restore") {
  for (const [name, entry] of Object.entries(pkg.exports)) {
    const { [CONDITION]: _, ...rest } = entry;
    pkg.exports[name] = { [CONDITION]: sourceOf(entry), ...rest };
  }
} else {
  console.error("usage: node scripts/source-condition.mjs remove|restore");
  process.exit(1);
}
writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
