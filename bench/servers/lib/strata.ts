// Locates and loads Strata's built output.
//
// Default: /work/main/dist/src/index.js, addressed relative to this compiled file
// (bench/dist/lib/strata.js -> ../../../dist/src/index.js). STRATA_DIST overrides it.
// Strata is loaded dynamically (and typed loosely) so that the bench compiles even
// when Strata has not been built yet; a missing or different API then shows up as
// "failed to start" in the runner instead of breaking the whole build.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const strataPath: string = process.env.STRATA_DIST
  ? resolve(process.env.STRATA_DIST)
  : fileURLToPath(new URL("../../../dist/src/index.js", import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: Strata's types are not available at bench build time.
export const loadStrata = async (): Promise<any> => {
  if (!existsSync(strataPath)) {
    throw new Error(
      `Strata build not found at ${strataPath} (run \`npm run build\` in the project root)`,
    );
  }
  return import(pathToFileURL(strataPath).href);
};

/** `strata/oauth` from the same build. */
// biome-ignore lint/suspicious/noExplicitAny: Strata's types are not available at bench build time.
export const loadStrataOAuth = async (): Promise<any> =>
  import(pathToFileURL(join(dirname(strataPath), "oauth", "index.js")).href);

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
 * Imports a bare ESM specifier (e.g. "effect/Layer") resolved the way Strata's dist
 * resolves it, so that routes built by the bench share Strata's module instances.
 * Falls back to the bench's own copy when that fails.
 */
export const importAsStrata = async <T>(specifier: string): Promise<T> => {
  try {
    const parts = specifier.split("/");
    const pkgName = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
    const sub = `.${specifier.slice(pkgName.length)}`;
    const req = createRequire(strataPath);
    const pkgJsonPath = req.resolve(`${pkgName}/package.json`);
    const pkg = JSON.parse(readFileSync(pkgJsonPath, "utf8"));
    const rel = pickImport(pkg.exports?.[sub === "." ? "." : sub]);
    if (rel === undefined) throw new Error(`no export ${sub} in ${pkgName}`);
    return (await import(pathToFileURL(join(dirname(pkgJsonPath), rel)).href)) as T;
  } catch (err) {
    process.stderr.write(
      `[bench] ${specifier}: using the bench's own copy (${(err as Error).message})\n`,
    );
    return (await import(specifier)) as T;
  }
};
