import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// scripts/check-docs.mjs, run on markdown files written here (its own output folder, so it
// never touches the run over the real docs).
const root = fileURLToPath(new URL("../../", import.meta.url));
const dir = "test-artifacts/check-docs-test";
mkdirSync(`${root}${dir}`, { recursive: true });
afterAll(() => rmSync(`${root}${dir}`, { recursive: true, force: true }));

const check = (name: string, markdown: string) => {
  writeFileSync(`${root}${dir}/${name}`, markdown);
  const run = spawnSync(
    process.execPath,
    ["scripts/check-docs.mjs", "--out", `${dir}/out-${name}`, `${dir}/${name}`],
    { cwd: root, encoding: "utf8" },
  );
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
};

describe("check-docs", () => {
  it("fails on a block that does not compile, naming the markdown file and line", () => {
    const run = check(
      "broken.md",
      [
        "# Broken",
        "",
        "```ts",
        'import { StrataApp } from "effect-strata";',
        "",
        "const port: number = StrataApp;",
        "```",
        "",
      ].join("\n"),
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("1 TypeScript block type-checked in 1 file, 0 opted out");
    expect(run.stderr).toMatch(new RegExp(`${dir}/broken\\.md:6:7: error TS2322`));
  }, 120_000);

  it("passes complete blocks importing strata's entry points, and counts opt-outs", () => {
    const run = check(
      "fine.md",
      [
        "```typescript",
        'import { Controller, Get } from "effect-strata";',
        'import { SessionGuard } from "effect-strata/session";',
        "",
        '@Controller("me")',
        "export class MeController {",
        "  @Get() me() {",
        "    return SessionGuard.name;",
        "  }",
        "}",
        "```",
        "",
        "```ts ignore: NestJS's own code, for comparison",
        'import { Controller } from "@nestjs/common";',
        "```",
        "",
        "```sh",
        "npm start",
        "```",
        "",
      ].join("\n"),
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("1 TypeScript block type-checked in 1 file, 1 opted out");
    expect(run.stdout).toContain(`${dir}/fine.md:13: NestJS's own code, for comparison`);
  }, 120_000);

  it("refuses an opt-out without a reason", () => {
    const run = check("bare.md", ["```ts ignore", "const x = 1;", "```", ""].join("\n"));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${dir}/bare.md:1: an opt-out needs a reason`);
  });
});
