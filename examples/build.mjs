// Production build of a Strata app: its entry and everything it imports bundled into one ES
// module, with a source map. Run it as `node --enable-source-maps dist/main.mjs`, beside the
// app's production node_modules (`npm ci --omit=dev`).
//
//   node build.mjs [entry = src/main.ts] [outdir = dist]
import { readFile } from "node:fs/promises";
import { transform } from "@swc/core";
import { build } from "esbuild";

const [entry = "src/main.ts", outdir = "dist"] = process.argv.slice(2);

/**
 * The app's TypeScript through swc, which emits decorator metadata (`design:paramtypes`: the
 * classic face injects constructor parameters by their types); esbuild alone drops it. Each
 * top-level class is then given its own name back: in a bundle esbuild renames a decorated
 * class that refers to itself (`_UsersController`) or shares its name with another module's
 * (`UsersController2`), and Strata names OpenAPI tags, operation ids and errors after classes.
 */
const decoratorMetadata = {
  name: "decorator-metadata",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const { code } = await transform(await readFile(path, "utf8"), {
        filename: path,
        sourceMaps: "inline",
        jsc: {
          target: "es2022",
          parser: { syntax: "typescript", decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
        },
      });
      // swc writes a top-level class's first line as `class Name ... {`: a static block there
      // names the class before its decorators run (on that line: no mapped line moves).
      const contents = code.replace(
        /^((?:export )?(?:default )?class (\w+)\b.*\{)$/gm,
        '$1 static { Object.defineProperty(this, "name", { value: "$2" }); }',
      );
      return { contents, loader: "js" };
    });
  },
};

/**
 * Strata's optional Effect peers: bundled when installed, so that they share the bundle's one
 * `effect`; left as imports otherwise (Strata reports them missing when first used).
 */
const optionalEffectPeers = {
  name: "optional-effect-peers",
  setup(build) {
    build.onResolve({ filter: /^@effect\/(sql|sql-pg|experimental)(\/|$)/ }, async (args) => {
      if (args.pluginData === "installed?") return undefined;
      const { kind, importer, resolveDir } = args;
      const found = await build.resolve(args.path, {
        kind,
        importer,
        resolveDir,
        pluginData: "installed?",
      });
      return found.errors.length === 0 ? found : { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: [entry],
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Stack traces need file, line and column only: without the sources' text the map is ~1 MB,
  // not ~8, and node parses it at startup.
  sourcemap: true,
  sourcesContent: false,
  // Loaded by Strata with `require` when first used, so they stay one module in node_modules,
  // shared with the app's own imports of them (libsql is a native addon).
  external: [
    "reflect-metadata",
    "class-validator",
    "class-transformer",
    "rxjs",
    "sanitize-html",
    "validator",
    "libsql",
  ],
  banner: {
    js: [
      // `require` for the CommonJS packages inside the bundle.
      'import { createRequire as __createRequire } from "node:module";',
      "const require = __createRequire(import.meta.url);",
      // `effect` reads a stack trace as it loads; with --enable-source-maps, node would decode
      // the whole map for it (~0.3 s of startup, ~30 MB). That one is formatted without the
      // map; stack traces formatted after loading are mapped (the first decodes the map).
      "const __prepareStackTrace = Error.prepareStackTrace;",
      'const __plainStackTrace = (error, frames) => [String(error), ...frames].join("\\n    at ");',
      "Error.prepareStackTrace = __plainStackTrace;",
      "queueMicrotask(() => {",
      "  if (Error.prepareStackTrace === __plainStackTrace) Error.prepareStackTrace = __prepareStackTrace;",
      "});",
    ].join("\n"),
  },
  plugins: [decoratorMetadata, optionalEffectPeers],
  logLevel: "warning",
  // Strata's build keeps a few bare imports (`import "effect/Runtime"`) of modules that effect
  // declares free of side effects: esbuild drops them, rightly, and would warn about each.
  logOverride: { "ignored-bare-import": "silent" },
});
