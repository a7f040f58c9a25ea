import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../scripts/check-layers.mjs", import.meta.url));
const roots: Array<string> = [];

/** Runs the layer check on a tree of `files` (path under src/ -> source). */
const check = (files: Readonly<Record<string, string>>) => {
  const root = mkdtempSync(join(tmpdir(), "strata-layers-"));
  roots.push(root);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  const run = spawnSync(process.execPath, [script, "--root", root], { encoding: "utf8" });
  return { status: run.status, output: run.stdout + run.stderr };
};

const base = {
  "http/HttpError.ts": "export class HttpError {}\n",
  "di/Injector.ts":
    'import { HttpError } from "../http/HttpError.js";\nexport const x = HttpError;\n',
  "app/StrataApp.ts": 'import { x } from "../di/Injector.js";\nexport const app = x;\n',
  "index.ts": 'export { app } from "./app/StrataApp.js";\n',
};

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("scripts/check-layers.mjs", () => {
  it("passes on Strata's own src/", () => {
    const run = spawnSync(process.execPath, [script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("passes on a tree whose imports point down", () => {
    expect(check(base)).toMatchObject({ status: 0 });
  });

  it("fails on an upward import, a type-only one too, and names the edge", () => {
    const run = check({
      ...base,
      "http/HttpError.ts":
        'import type { app } from "../app/StrataApp.js";\nexport type A = typeof app;\n',
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain(
      "upward import: http/HttpError.ts [http] -> app/StrataApp.ts [app] (type)",
    );
  });

  it("fails on an upward import()", () => {
    const run = check({
      ...base,
      "di/Lazy.ts": 'export const load = () => import("../app/StrataApp.js");\n',
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain("upward import: di/Lazy.ts [di] -> app/StrataApp.ts [app]");
  });

  it("ignores an import written in a comment", () => {
    const run = check({
      ...base,
      "http/Doc.ts":
        '/** e.g. import { app } from "../app/StrataApp.js"; */\nexport const doc = 1;\n',
    });
    expect(run).toMatchObject({ status: 0 });
  });

  it("fails on a circle inside one folder and prints its edges", () => {
    const run = check({
      ...base,
      "di/A.ts": 'import type { B } from "./B.js";\nexport interface A { b?: B }\n',
      "di/B.ts": 'import { a } from "./internal/C.js";\nexport interface B { a: typeof a }\n',
      "di/internal/C.ts":
        'import type { A } from "../A.js";\nexport const a: A | undefined = undefined;\n',
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain("import circle of 3 files");
    expect(run.output).toContain("di/internal/C.ts -> di/A.ts");
  });

  it("fails on an import between two folders of one layer", () => {
    const run = check({
      ...base,
      "redis/RedisClient.ts": "export const redis = 1;\n",
      "lifecycle/Health.ts":
        'import { redis } from "../redis/RedisClient.js";\nexport const h = redis;\n',
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain("sideways import: lifecycle/Health.ts -> redis/RedisClient.ts");
  });

  it("fails on a fast path file imported other than through its entry", () => {
    const run = check({
      ...base,
      "server/internal/RequestFibers.ts": "export const childRuntime = 1;\n",
      "server/internal/FastPath.ts": 'export { childRuntime } from "./RequestFibers.js";\n',
      "middleware/Ok.ts":
        'import { childRuntime } from "../server/internal/FastPath.js";\nexport const ok = childRuntime;\n',
      "middleware/Timeout.ts":
        'import { childRuntime } from "../server/internal/RequestFibers.js";\nexport const t = childRuntime;\n',
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain(
      "sealed folder: middleware/Timeout.ts -> server/internal/RequestFibers.ts",
    );
    expect(run.output).not.toContain("middleware/Ok.ts");
  });

  it("fails on Effect internals imported outside the fast path", () => {
    const run = check({
      ...base,
      "server/internal/Probe.ts":
        'import * as internal from "effect/internal/fiberRuntime";\nexport const p = internal;\n',
      "pipeline/Guards.ts":
        'import * as internal from "effect/internal/fiberRuntime";\nexport const g = internal;\n',
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain(
      "private import: pipeline/Guards.ts -> effect/internal/fiberRuntime",
    );
    expect(run.output).not.toContain("server/internal/Probe.ts");
  });

  it("fails on a folder that is in no layer", () => {
    const run = check({ ...base, "misc/Thing.ts": "export const thing = 1;\n" });
    expect(run.status).toBe(1);
    expect(run.output).toContain("folder misc/ is in no layer");
  });
});
