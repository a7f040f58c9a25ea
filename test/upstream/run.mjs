#!/usr/bin/env node
// `npm run test:upstream`: @effect/platform's own HttpApi, HttpApiBuilder, HttpLayerRouter,
// HttpApiDocs and OpenApi tests and @effect/platform-node's HttpServer tests, at the commit of
// Effect's `v3` branch matching the @effect/platform and @effect/platform-node Strata depends
// on,
// then run with vitest against Strata's wiring (vitest.config.ts, shims/). Their assertions are
// unchanged; in HttpApi.test.ts the one statement that picks the server is replaced.
// `UPSTREAM_GIT=<git directory of a clone of Effect-TS/effect>` names the clone they are read
// from (copied into test-artifacts/upstream, git-ignored: they are Effect's code, never committed).
// CI runs Strata's own tests of the behaviour they pin (test/openapi/), not these.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const COMMIT = "20596061bd24dd7f18c5b5c839111310d730d6e9";
const FILES = [
  "packages/platform-node/test/HttpApi.test.ts",
  "packages/platform-node/test/HttpServer.test.ts",
  "packages/platform-node/test/fixtures/openapi.json",
  "packages/platform-node/test/fixtures/text.txt",
  "packages/platform/test/HttpApiBuilder.test.ts",
  "packages/platform/test/HttpApiDocs.test.ts",
  "packages/platform/test/HttpLayerRouter.test.ts",
  "packages/platform/test/OpenApi.test.ts",
];

/** The statement of HttpApi.test.ts that picks the server, and Strata's. */
const SERVER_LINE = `const HttpLive = HttpApiBuilder.serve().pipe(
  Layer.provide(HttpApiBuilder.middlewareCors()),
  Layer.provide(HttpApiLive),
  Layer.provideMerge(NodeHttpServer.layerTest)
)`;
const STRATA_LINE =
  "const HttpLive = HttpLayerRouter.serve(HttpLayerRouter.addHttpApi(Api).pipe(Layer.provide([HttpGroupsLive, HttpUsersLive, TopLevelLive]))).pipe(Layer.provideMerge(NodeHttpServer.layerTest))";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const target = join(root, "test-artifacts/upstream");

/** One file of Effect's repository at {@link COMMIT}. */
const read = async (file) => {
  const git = process.env.UPSTREAM_GIT;
  if (git === undefined) throw new Error("UPSTREAM_GIT is not set");
  const shown = spawnSync("git", ["--git-dir", git, "show", `${COMMIT}:${file}`], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (shown.status !== 0) throw new Error(`git show ${COMMIT}:${file}: ${shown.stderr}`);
  return shown.stdout;
};

for (const file of FILES) {
  let text;
  try {
    text = await read(file);
  } catch (error) {
    console.error(
      `test:upstream: ${error.message} (UPSTREAM_GIT names the git directory of a clone of Effect-TS/effect)`,
    );
    process.exit(1);
  }
  if (file.endsWith("/HttpApi.test.ts")) {
    if (!text.includes(SERVER_LINE)) {
      console.error(`test:upstream: ${file} no longer has the statement that picks the server`);
      process.exit(1);
    }
    text = text.replace(SERVER_LINE, STRATA_LINE);
  }
  mkdirSync(dirname(join(target, file)), { recursive: true });
  writeFileSync(join(target, file), text);
}

const vitest = spawnSync(
  process.execPath,
  [
    join(root, "node_modules/vitest/vitest.mjs"),
    "run",
    "--config",
    join(root, "test/upstream/vitest.config.ts"),
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: "inherit" },
);
process.exit(vitest.status ?? 1);
