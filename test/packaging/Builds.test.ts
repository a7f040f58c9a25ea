import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureApps, getJson, type Started } from "./fixtureApps.js";

// The published builds, as apps load them: `npm test` builds dist/ before vitest runs.
const root = fileURLToPath(new URL("../../", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));

const node = (...args: ReadonlyArray<string>) =>
  execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim();

/** Runs a fixture app of this repository, which resolves `effect-strata` to itself (its dist/). */
const run = fixtureApps();
const start = (file: string, lines: number) => run(fixture(file), lines, { cwd: root });

beforeAll(() => {
  for (const built of ["dist/cjs/index.js", "dist/src/index.js"])
    if (!existsSync(`${root}${built}`))
      throw new Error(`${built} is missing: run \`npm run build\` (npm test does)`);
});

describe("the package's entry points", () => {
  it("give `require` the CommonJS build and `import` the ESM build", () => {
    for (const entry of [
      "effect-strata",
      "effect-strata/effect",
      "effect-strata/oauth",
      "effect-strata/testing",
      "effect-strata/devidp",
    ]) {
      const required = node("-p", `require.resolve(${JSON.stringify(entry)})`);
      const imported = node(
        "--input-type=module",
        "-e",
        `console.log(import.meta.resolve(${JSON.stringify(entry)}))`,
      );
      expect(required).toMatch(/\/dist\/cjs\/(\w+\/)?index\.js$/);
      expect(imported).toMatch(/\/dist\/src\/(\w+\/)?index\.js$/);
    }
    expect(node("-p", `require("./dist/cjs/package.json").type`)).toBe("commonjs");
  });
});

describe.each([
  { format: "CommonJS", file: "main.cjs", lines: 2 },
  { format: "ESM", file: "main.mjs", lines: 1 },
])("an app on the $format build", ({ file, lines }) => {
  let app: Started;
  beforeAll(async () => {
    app = await start(file, lines);
  }, 30_000);

  it("serves a classic controller with its injected service and pipe", async () => {
    expect(await getJson(`${app.classic}/users/42`)).toEqual({
      status: 200,
      body: { id: 42, name: "user 42" },
    });
    expect(await getJson(`${app.classic}/users/abc`)).toEqual({
      status: 400,
      body: { statusCode: 400, message: "Validation failed (numeric string is expected)" },
    });
    const missing = await getJson(`${app.classic}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ statusCode: 404 });
  });

  it("starts an OAuth login: a 302 to Google with PKCE and a sealed, HttpOnly cookie", async () => {
    const response = await fetch(`${app.classic}/auth/google`, { redirect: "manual" });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe(
      "https://accounts.google.com/o/oauth2/v2/auth",
    );
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    expect(location.searchParams.get("state")).toMatch(/^[\w-]{20,}$/);
    expect(response.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    expect(response.headers.get("set-cookie")).not.toContain("fixture-secret");
  });

  it("serves an Effect route with a service the app's Layer provides", async () => {
    expect(await getJson(`${app.effect}/greeting`)).toEqual({
      status: 200,
      body: { greeting: "hello" },
    });
  });
});

describe("the CommonJS build", () => {
  it("requires what it loads on demand: one `effect`, the app's, not a second ESM copy", async () => {
    const app = await start("main.cjs", 2);
    // @effect/platform-node's server, loaded by `StrataServer.layerNodePlatform` on first use.
    expect(app.lines[1]).toBe("required 1");
  }, 30_000);
});
