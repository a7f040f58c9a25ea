// Second build step, after `tsc -p tsconfig.build.json`: bundles tsc's per-file output into one
// file per public entry (package.json "exports"), with the code the entries share in chunks, so
// that an app loads a handful of Strata files instead of ~100 (node 20's ESM loader costs ~0.4 ms
// a module, ~35 ms of startup). Every package stays external (one shared `effect` for Effect
// users), tsc's .d.ts files are kept as they are, and the source maps still point at src/*.ts.
// The entry files are replaced in place, so the "exports" paths do not change; the per-file
// .js/.js.map that went into the bundle are removed.
//
// Rollup, not esbuild: esbuild renames class expressions (tsc's `let X = class X` for decorated
// classes becomes `class X2`, changing `X.name`), and its `keepNames` remedy wraps every arrow
// function, per-request closures included, in a `__name` call.

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { rollup } from "rollup";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist", "src");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const entries = Object.fromEntries(
  Object.values(pkg.exports).map((target) => {
    const file = join(root, target.default);
    return [relative(outdir, file).replace(/\.js$/, ""), file];
  }),
);

/** The export names of every entry, read by a fresh node process. */
const exportNames = () =>
  execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const names = [];
       for (const entry of ${JSON.stringify(Object.values(entries))})
         names.push(Object.keys(await import(entry)).sort().join(","));
       console.log(JSON.stringify(names));`,
    ],
    { encoding: "utf8" },
  );

const before = exportNames();

// Every module the core entry (`strata`) reaches goes into one chunk, which the other entries
// share, and the entry file only re-exports it: node 20's ESM loader resolves and links each
// import statement of each file on its own (resolving a bare specifier alone: 0.06 ms with a
// warm loader, 0.3 ms cold), so an app on `strata` alone loads 2 Strata files with 47 imports
// between them. For the same reason the entries do
// not repeat their chunks' imports (`hoistTransitiveImports`, which only helps loaders that
// fetch over a network). Importing the dist after its packages, pinned to one core (medians
// of 8): 36.5 ms with the core entry's own modules left in the entry file and the chunk's
// imports hoisted into it (92 statements), 28.6 ms this way.
const coreEntry = entries.index;
let owners;
/** The entries from which each module is reachable, found once from the module graph. */
const entriesReaching = (getModuleInfo) => {
  if (owners !== undefined) return owners;
  owners = new Map();
  for (const entry of Object.values(entries)) {
    const pending = [entry];
    const seen = new Set();
    while (pending.length > 0) {
      const id = pending.pop();
      if (seen.has(id)) continue;
      seen.add(id);
      const info = getModuleInfo(id);
      if (info === null || info.isExternal) continue;
      if (!owners.has(id)) owners.set(id, new Set());
      owners.get(id).add(entry);
      pending.push(...info.importedIds, ...info.dynamicallyImportedIds);
    }
  }
  return owners;
};

const bundle = await rollup({
  input: entries,
  // Packages and node builtins stay imports; only Strata's own relative modules are bundled.
  external: (id) => !id.startsWith(".") && !id.startsWith("/"),
  plugins: [
    {
      // tsc's source maps, so that the bundle's maps lead back to src/*.ts.
      name: "input-source-maps",
      load(id) {
        const code = readFileSync(id, "utf8");
        const map = `${id}.map`;
        return existsSync(map) ? { code, map: readFileSync(map, "utf8") } : code;
      },
    },
  ],
  onwarn(warning, warn) {
    // tsc's helpers test `this && this.__decorate` at the top level of every module.
    if (warning.code !== "THIS_IS_UNDEFINED") warn(warning);
  },
});
const { output } = await bundle.write({
  dir: outdir,
  format: "es",
  entryFileNames: "[name].js",
  chunkFileNames: "chunks/[name]-[hash].js",
  manualChunks: (id, { getModuleInfo }) => {
    if (id === coreEntry) return undefined;
    const reaching = entriesReaching(getModuleInfo).get(id);
    return reaching?.has(coreEntry) ? "core" : undefined;
  },
  hoistTransitiveImports: false,
  sourcemap: true,
});
await bundle.close();

// The bundle must export exactly what tsc's entries export.
const after = exportNames();
if (after !== before) {
  console.error(
    `bundle-dist: the bundled entries export other names than tsc's:\n${before}\n${after}`,
  );
  process.exit(1);
}

// Remove the per-file modules that are now inside the bundle (their .d.ts files stay).
const written = new Set(
  output
    .flatMap((o) => [join(outdir, o.fileName)])
    .concat(output.filter((o) => o.type === "chunk").map((o) => join(outdir, `${o.fileName}.map`))),
);
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
let removed = 0;
for (const file of walk(outdir)) {
  if (!/\.js(\.map)?$/.test(file) || written.has(file)) continue;
  rmSync(file);
  removed++;
}
const chunks = output.filter((o) => o.type === "chunk");
console.log(
  `bundled ${new Set(chunks.flatMap((c) => Object.keys(c.modules))).size} modules into ` +
    `${chunks.length} files (${chunks.map((c) => c.fileName).join(", ")}); removed ${removed} per-file outputs`,
);
