import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// scripts/api-docs/build.mjs (`npm run docs:api`), run on a one-file package written here, with
// the repository's TypeDoc options (typedoc.json extends them) and compiler options: it must fail
// on an export without a doc comment and on an @example that does not type-check.
const root = fileURLToPath(new URL("../../", import.meta.url));
const dir = "test-artifacts/api-docs-test";
afterAll(() => rmSync(`${root}${dir}`, { recursive: true, force: true }));

const build = (name: string, source: string) => {
  const fixture = `${root}${dir}/${name}`;
  mkdirSync(fixture, { recursive: true });
  const exports = { ".": { "strata-source": "./index.ts" } };
  const pkg = { name: "api-docs-fixture", type: "module", exports };
  writeFileSync(`${fixture}/package.json`, JSON.stringify(pkg));
  const tsconfig = { extends: "../../../tsconfig.json", include: ["index.ts"] };
  writeFileSync(`${fixture}/tsconfig.json`, JSON.stringify(tsconfig));
  const typedoc = { extends: ["../../../typedoc.json"], tsconfig: "tsconfig.json" };
  writeFileSync(`${fixture}/typedoc.json`, JSON.stringify(typedoc));
  writeFileSync(`${fixture}/index.ts`, source);
  const run = spawnSync(process.execPath, ["scripts/api-docs/build.mjs", fixture], {
    cwd: root,
    encoding: "utf8",
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
};

const add = (example: string) => `/**
 * Adds two numbers.
 *
 * @example
 * ${example}
 */
export const add = (a: number, b: number): number => a + b;
`;

describe("docs:api", () => {
  it("passes on documented exports whose examples type-check", () => {
    const run = build("documented", add("const three: number = add(1, 2);"));
    expect(run.output).toContain("1 documented exports, 1 examples type-checked");
    expect(run.status).toBe(0);
  }, 60_000);

  it("fails on an export without a doc comment", () => {
    const source = `${add("add(1, 2);")}export const subtract = (a: number, b: number) => a - b;\n`;
    const run = build("undocumented", source);
    expect(run.output).toMatch(/subtract.*does not have any documentation/);
    expect(run.output).toContain("exports without a doc comment");
    expect(run.status).toBe(1);
  }, 60_000);

  it("fails on an @example that does not type-check, naming the export", () => {
    const run = build("broken-example", add("const three: string = add(1, 2);"));
    expect(run.output).toMatch(/example-001\.ts\(\d+,7\): error TS2322/);
    expect(run.output).toContain("an @example does not type-check");
    expect(run.status).toBe(1);
  }, 60_000);
});
