// Second build step, after `tsc -p tsconfig.build.json`: bundles tsc's per-file output into one
// file per public entry (package.json "exports"), with the code the entries share in chunks, so
// that an app loads a handful of Strata files instead of ~100 (node 20's ESM loader costs ~0.4 ms
// a module, ~35 ms of startup). Every package stays external (one shared `effect` for Effect
// users) and tsc's .d.ts files are kept as they are. No source or declaration maps: the package
// ships no src/ for them to lead to, and its code is tsc's readable output, comments included.
// The entry files are replaced in place, so the "exports" paths do not change; the per-file
// .js that went into the bundle are removed.
//
// The same bundle is also written as CommonJS to dist/cjs (the "require" condition), with a copy
// of the .d.ts files there under a `"type": "commonjs"` package.json. A CommonJS app then loads
// effect and @effect/platform through their own CommonJS builds, which node 20 loads far faster
// than their ESM ones: spawn to the first 200 of the hello app, pinned, medians of 12: 316 ms
// required, 415 ms imported (effect/Schema's `export * from "fast-check"` alone: 35 ms as
// CommonJS, 103 ms as ESM).
//
// Rollup, not esbuild: esbuild renames class expressions (tsc's `let X = class X` for decorated
// classes becomes `class X2`, changing `X.name`), and its `keepNames` remedy wraps every arrow
// function, per-request closures included, in a `__name` call.

import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { rollup } from "rollup";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist", "src");
const cjsdir = join(root, "dist", "cjs");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const entries = Object.fromEntries(
  Object.values(pkg.exports).map((target) => {
    const file = join(root, target.import.default);
    return [relative(outdir, file).replace(/\.js$/, ""), file];
  }),
);

/** The export names of every entry, read by a fresh node process (`load` is "import" or "require"). */
const exportNames = (dir, load) =>
  execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { createRequire } from "node:module";
       const require = createRequire(import.meta.url);
       const names = [];
       for (const entry of ${JSON.stringify(Object.keys(entries).map((name) => join(dir, `${name}.js`)))})
         names.push(Object.keys(await ${load}(entry)).filter((name) => name !== "__esModule").sort().join(","));
       console.log(JSON.stringify(names));`,
    ],
    { encoding: "utf8" },
  );

const before = exportNames(outdir, "import");

// Every module the core entry (`effect-strata`) reaches goes into one chunk, which the other entries
// share, and the entry file only re-exports it: node 20's ESM loader resolves and links each
// import statement of each file on its own (resolving a bare specifier alone: 0.06 ms with a
// warm loader, 0.3 ms cold), so an app on `effect-strata` alone loads 2 Strata files with 47 imports
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
      // `import.meta.url` in the CommonJS output: the file's URL, without rollup's browser fallback.
      name: "commonjs-import-meta-url",
      resolveImportMeta: (property, { format }) =>
        format === "cjs" && property === "url"
          ? `require("node:url").pathToFileURL(__filename).href`
          : null,
    },
  ],
  onwarn(warning, warn) {
    // tsc's helpers test `this && this.__decorate` at the top level of every module.
    if (warning.code !== "THIS_IS_UNDEFINED") warn(warning);
  },
});
const layout = {
  entryFileNames: "[name].js",
  chunkFileNames: "chunks/[name]-[hash].js",
  manualChunks: (id, { getModuleInfo }) => {
    if (id === coreEntry) return undefined;
    const reaching = entriesReaching(getModuleInfo).get(id);
    return reaching?.has(coreEntry) ? "core" : undefined;
  },
  hoistTransitiveImports: false,
};
rmSync(cjsdir, { recursive: true, force: true });
const { output } = await bundle.write({ ...layout, dir: outdir, format: "es" });
await bundle.write({
  ...layout,
  dir: cjsdir,
  format: "cjs",
  // The packages' own CommonJS builds through `require`, also for Strata's lazy loads: an
  // `import()` would load their ESM builds, a second `effect` beside the required one.
  dynamicImportInCjs: false,
  // effect's CommonJS modules mark themselves `__esModule`: used as they are, no copies.
  interop: "auto",
});
await bundle.close();
// CommonJS by its own package.json (the root one says "module").
writeFileSync(join(cjsdir, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);

// The bundle must export exactly what tsc's entries export, as ESM and as CommonJS.
for (const [dir, load] of [
  [outdir, "import"],
  [cjsdir, "require"],
]) {
  const after = exportNames(dir, load);
  if (after !== before) {
    console.error(
      `bundle-dist: the bundled ${load} entries export other names than tsc's:\n${before}\n${after}`,
    );
    process.exit(1);
  }
}

// Remove the per-file modules that are now inside the bundle (their .d.ts files stay).
const written = new Set(output.map((o) => join(outdir, o.fileName)));
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
let removed = 0;
for (const file of walk(outdir)) {
  if (!file.endsWith(".js") || written.has(file)) continue;
  rmSync(file);
  removed++;
}
// dist/cjs gets the same declarations, read as CommonJS ones there.
for (const file of walk(outdir)) {
  if (!file.endsWith(".d.ts")) continue;
  const copy = join(cjsdir, relative(outdir, file));
  mkdirSync(dirname(copy), { recursive: true });
  copyFileSync(file, copy);
}

const chunks = output.filter((o) => o.type === "chunk");
console.log(
  `bundled ${new Set(chunks.flatMap((c) => Object.keys(c.modules))).size} modules into ` +
    `${chunks.length} files (${chunks.map((c) => c.fileName).join(", ")}); removed ${removed} per-file outputs`,
);
