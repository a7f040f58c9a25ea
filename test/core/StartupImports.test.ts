import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The CommonJS modules (paths under node_modules) a fresh node has loaded after importing `strata`. */
const loadedAfterImport = (): ReadonlyArray<string> =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        "--conditions=strata-source",
        "--import",
        "./scripts/register.mjs",
        "--input-type=module",
        "-e",
        `import { createRequire } from "node:module";
         await import("strata");
         const cache = createRequire(process.cwd() + "/").cache;
         console.log(JSON.stringify(Object.keys(cache)));`,
      ],
      { cwd: root, encoding: "utf8" },
    ),
  ).map((path: string) => path.slice(path.lastIndexOf("node_modules/") + 13));

describe("importing strata", () => {
  // Startup time: these load on first use, not when the app starts.
  it("loads neither sanitize-html nor validator", () => {
    const loaded = loadedAfterImport();
    expect(loaded.filter((path) => /^(sanitize-html|validator)\//.test(path))).toEqual([]);
    expect(loaded.some((path) => path.startsWith("reflect-metadata/"))).toBe(true);
  });
});
