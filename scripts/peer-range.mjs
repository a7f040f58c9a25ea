// CI: the server tests against the lowest and the newest versions of each Effect peer range.
// Strata reads a few private shapes of Effect on its fast path (each checked at startup, with a
// public fallback); this runs those tests on both ends of what `peerDependencies` admits. Ends
// equal to what is installed are not installed again. The repo's own versions are put back
// afterwards (`npm install`) when another was installed, whatever the outcome.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

// The required Effect peers only: the optional ones (rxjs, class-validator, the SQL clients, ...)
// are loaded by the features that use them, and tested by their own suites.
const manifest = JSON.parse(readFileSync("package.json", "utf8"));
const optional = manifest.peerDependenciesMeta ?? {};
const peers = Object.fromEntries(
  Object.entries(manifest.peerDependencies).filter(
    ([name]) =>
      (name === "effect" || name.startsWith("@effect/")) && optional[name]?.optional !== true,
  ),
);
const serverTests = [
  "test/server",
  "test/http",
  "test/middleware/GlobalMiddleware.test.ts",
  "test/pipeline",
];

const run = (command, args) => execFileSync(command, args, { stdio: "inherit" });
const npmJson = (args) =>
  JSON.parse(execFileSync("npm", [...args, "--json"], { encoding: "utf8" }) || "null");

/** Every published version of `name` in `range`, oldest first. */
const versionsIn = (name, range) => {
  const found = npmJson(["view", `${name}@${range}`, "version"]);
  return Array.isArray(found) ? found : [found];
};
const installed = (name) =>
  JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8")).version;

const ends = { lowest: {}, newest: {} };
for (const [name, range] of Object.entries(peers)) {
  const versions = versionsIn(name, range);
  ends.lowest[name] = versions[0];
  ends.newest[name] = versions[versions.length - 1];
}

let failed = false;
let changed = false;
try {
  for (const [end, versions] of Object.entries(ends)) {
    const differ = Object.entries(versions).filter(([name, v]) => installed(name) !== v);
    const listed = Object.entries(versions).map(([name, v]) => `${name}@${v}`);
    if (differ.length === 0) {
      console.log(`peer range, ${end}: ${listed.join(" ")} (as installed: tested by npm test)`);
      continue;
    }
    console.log(`peer range, ${end}: ${listed.join(" ")}`);
    changed = true;
    run("npm", ["install", "--no-save", "--no-audit", "--no-fund", ...listed]);
    try {
      run("npx", ["vitest", "run", ...serverTests]);
    } catch {
      failed = true;
    }
  }
} finally {
  if (changed) run("npm", ["install", "--no-audit", "--no-fund"]);
}
process.exit(failed ? 1 : 0);
