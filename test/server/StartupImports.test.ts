import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

// Records every module the ES module loader loads (a hook, on the loader's thread) and hands the
// list over when asked.
const recorder = `const loaded = [];
export function initialize({ port }) { port.on("message", () => port.postMessage(loaded)); }
export async function load(url, context, next) { loaded.push(url); return next(url, context); }`;

/**
 * The modules a fresh node has loaded after importing `effect-strata`, as paths under node_modules:
 * the ES modules its loader loaded and the CommonJS modules in `require`'s cache.
 */
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
        `import { createRequire, register } from "node:module";
         import { MessageChannel } from "node:worker_threads";
         const { port1, port2 } = new MessageChannel();
         register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(recorder)}`)}, {
           data: { port: port2 },
           transferList: [port2],
         });
         await import("effect-strata");
         port1.postMessage("list");
         const imported = await new Promise((resolve) => port1.once("message", resolve));
         port1.close();
         const required = Object.keys(createRequire(process.cwd() + "/").cache);
         console.log(JSON.stringify([...imported.map(decodeURIComponent), ...required]));`,
      ],
      { cwd: root, encoding: "utf8" },
    ),
  )
    .filter((path: string) => path.includes("node_modules/"))
    .map((path: string) => path.slice(path.lastIndexOf("node_modules/") + 13));

/** The package a path under node_modules belongs to (`@scope/name` or `name`). */
const packageOf = (path: string): string =>
  path
    .split("/")
    .slice(0, path.startsWith("@") ? 2 : 1)
    .join("/");

describe("importing strata", () => {
  // Startup time: OAuth (jose, arctic), sessions and rate limits on Redis (ioredis), the
  // sanitizers (sanitize-html, validator), NestJS compatibility (rxjs, class-validator,
  // class-transformer) and multipart parsing load on first use, not when the app starts.
  it("loads only the packages a hello app needs", () => {
    const packages = [...new Set(loadedAfterImport().map(packageOf))].sort();
    expect(packages).toEqual([
      "@effect/platform",
      "@effect/platform-node",
      "@effect/platform-node-shared",
      // effect/Schema's `export * from "fast-check"` (effect/FastCheck), and fast-check's own.
      "effect",
      "fast-check",
      // @effect/platform's HttpLayerRouter and its multipart parser, imported by its requests.
      "find-my-way-ts",
      "multipasta",
      "pure-rand",
      // The decorators' type metadata.
      "reflect-metadata",
    ]);
  });
});
