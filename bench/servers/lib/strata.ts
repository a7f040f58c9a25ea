// Locates and loads Strata's built output.
//
// STRATA_FORMAT picks the build: `cjs` (the default) requires Strata's CommonJS build
// (dist/cjs/index.js), as an app compiled to CommonJS does (NestJS's default, and how the nest-*
// servers load NestJS); `esm` imports its ESM build (dist/src/index.js), as an ES module app
// does. Both are addressed relative to this compiled file (bench/dist/lib/strata.js ->
// ../../../dist/...); STRATA_DIST overrides the path. Strata is loaded dynamically (and typed
// loosely) so that the bench compiles even when Strata has not been built yet; a missing or
// different API then shows up as "failed to start" in the runner instead of breaking the build.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const format = process.env.STRATA_FORMAT ?? "cjs";
if (format !== "cjs" && format !== "esm")
  throw new Error(`STRATA_FORMAT: cjs or esm, not ${format}`);

export const strataPath: string = process.env.STRATA_DIST
  ? resolve(process.env.STRATA_DIST)
  : fileURLToPath(
      new URL(`../../../dist/${format === "cjs" ? "cjs" : "src"}/index.js`, import.meta.url),
    );

/** The specifier {@link loadStrata} takes for Strata's `effect-strata/oauth` entry (same build). */
export const STRATA_OAUTH = "effect-strata/oauth";

/** The specifier {@link loadStrata} takes for Strata's `effect-strata/session` entry (same build). */
export const STRATA_SESSION = "effect-strata/session";

/** Strata's own entries other than the core one, by specifier. */
const ENTRIES: ReadonlySet<string> = new Set([STRATA_OAUTH, STRATA_SESSION]);

/**
 * Strata's entry, then each of `specifiers`, required from Strata's dist (`cjs`), or (`esm`)
 * loaded by a single dynamic import as one module graph, what a statically imported app does:
 * node 20 walks the whole graph loaded so far on each dynamic import of a new module
 * (`ModuleJob._instantiate`: 5–15 ms once Strata's ~550 modules are in), so loading a server's
 * modules one by one would charge its startup for walks a real app does not make.
 *
 * A specifier is {@link STRATA_OAUTH}, {@link STRATA_SESSION} or a bare one ("effect/Layer"), resolved the way Strata's
 * dist resolves it so that routes built by the bench share Strata's module instances.
 */
// biome-ignore lint/suspicious/noExplicitAny: Strata's types are not available at bench build time.
export const loadStrata = async (...specifiers: ReadonlyArray<string>): Promise<Array<any>> => {
  if (!existsSync(strataPath)) {
    throw new Error(
      `Strata build not found at ${strataPath} (run \`npm run build\` in the project root)`,
    );
  }
  // `effect-strata/oauth` is `oauth/index.js` beside the core entry, in either build.
  const entryPath = (specifier: string) =>
    join(dirname(strataPath), specifier.slice("effect-strata/".length), "index.js");
  if (format === "cjs") {
    const require = createRequire(strataPath);
    return [strataPath, ...specifiers].map((specifier) =>
      require(ENTRIES.has(specifier) ? entryPath(specifier) : specifier),
    );
  }
  const urls = [
    pathToFileURL(strataPath).href,
    ...specifiers.map((specifier) =>
      ENTRIES.has(specifier)
        ? pathToFileURL(entryPath(specifier)).href
        : resolveAsStrata(specifier),
    ),
  ];
  const graph = await import(
    `data:text/javascript,${encodeURIComponent(
      urls.map((url, i) => `export * as m${i} from ${JSON.stringify(url)};`).join("\n"),
    )}`
  );
  return urls.map((_, i) => graph[`m${i}`]);
};

type ExportTarget = string | { readonly [condition: string]: ExportTarget } | null | undefined;

const pickImport = (target: ExportTarget): string | undefined => {
  if (typeof target === "string") return target;
  if (target === null || target === undefined) return undefined;
  for (const cond of ["import", "node", "default"]) {
    const picked = pickImport(target[cond]);
    if (picked !== undefined) return picked;
  }
  return undefined;
};

/**
 * The URL of a bare ESM specifier (e.g. "effect/Layer") resolved the way Strata's dist
 * resolves it. Falls back to the bench's own copy when that fails.
 */
const resolveAsStrata = (specifier: string): string => {
  try {
    const parts = specifier.split("/");
    const pkgName = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
    const sub = `.${specifier.slice(pkgName.length)}`;
    const req = createRequire(strataPath);
    const pkgJsonPath = req.resolve(`${pkgName}/package.json`);
    const pkg = JSON.parse(readFileSync(pkgJsonPath, "utf8"));
    const rel = pickImport(pkg.exports?.[sub === "." ? "." : sub]);
    if (rel === undefined) throw new Error(`no export ${sub} in ${pkgName}`);
    return pathToFileURL(join(dirname(pkgJsonPath), rel)).href;
  } catch (err) {
    process.stderr.write(
      `[bench] ${specifier}: using the bench's own copy (${(err as Error).message})\n`,
    );
    return import.meta.resolve(specifier);
  }
};
