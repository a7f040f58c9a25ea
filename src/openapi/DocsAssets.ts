import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzip } from "node:zlib";
import * as Effect from "effect/Effect";
import { StartupError } from "../di/StartupError.js";

/** The docs page's script, ready to send: its bytes, and the same gzipped. */
export interface ScalarBundle {
  readonly raw: Uint8Array;
  readonly gzip: Uint8Array;
}

const require = createRequire(import.meta.url);

/** What the bundle module starts with, in its CommonJS and ES builds (checked at startup). */
const commonJsStart = /exports\.javascript\s*=/;
const esStart = /export const javascript\s*=/;

/**
 * Finds Scalar's browser bundle (`@scalar/api-reference` standalone) where `@effect/platform`
 * ships it for `HttpApiScalar` (a module of its own, next to `HttpApiScalar`), at startup: no
 * second copy in `node_modules`, no CDN. The module is private to `@effect/platform`, so its
 * shape is checked here, once; another shape fails the start (serve no page with
 * `docsPath: false`). Returns an Effect that loads and gzips it, once, on the first request for
 * it (3.4 MB: loading it with every app would cost startup).
 */
export const scalarBundle: Effect.Effect<Effect.Effect<ScalarBundle>, StartupError> = Effect.gen(
  function* () {
    const file = yield* Effect.try({
      try: () => {
        const path = join(
          dirname(require.resolve("@effect/platform/HttpApiScalar")),
          "internal",
          "httpApiScalar.js",
        );
        const head = Buffer.alloc(512);
        const fd = openSync(path, "r");
        try {
          readSync(fd, head, 0, head.length, 0);
        } finally {
          closeSync(fd);
        }
        const start = head.toString("latin1");
        if (commonJsStart.test(start)) return { path, commonJs: true };
        if (esStart.test(start)) return { path, commonJs: false };
        throw new Error(`${path} has another shape`);
      },
      catch: (cause) =>
        new StartupError({
          message: `OpenAPI: the docs page needs Scalar's bundle from @effect/platform (HttpApiScalar), which this version does not ship as expected (${cause instanceof Error ? cause.message : String(cause)}): pass openapi.docsPath: false to serve the document alone.`,
          cause,
        }),
    });
    return yield* Effect.cached(
      Effect.promise(async () => {
        // `require` where node resolves it (the CommonJS build, also from Strata's own CommonJS
        // build, where an `import()` becomes a `require`); `import()` for the ES build.
        const module = (
          file.commonJs ? require(file.path) : await import(pathToFileURL(file.path).href)
        ) as { readonly javascript: string };
        const source = module.javascript;
        const raw = new Uint8Array(Buffer.from(source, "utf8"));
        const zipped = await new Promise<Uint8Array>((resolve, reject) =>
          gzip(raw, (error, result) =>
            error === null ? resolve(new Uint8Array(result)) : reject(error),
          ),
        );
        return { raw, gzip: zipped };
      }),
    );
  },
);
