import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pickUser } from "../examples/runScript.js";
import { CookieJar } from "../support/cookieJar.js";
import { freePort } from "../support/freePort.js";

// The production build of docs/deployment.md ("Production build"): examples/build.mjs bundles an
// app into one ES module with its source map, run with `node --enable-source-maps` beside
// node_modules. It bundles Strata's published build (`npm test` builds dist/ before vitest runs).
const root = fileURLToPath(new URL("../../", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "strata-production-build-"));
// The deployment: the bundles, and the production node_modules beside them.
symlinkSync(join(root, "node_modules"), join(out, "node_modules"), "dir");

const children: Array<ChildProcess> = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(out, { recursive: true, force: true });
});

/** Bundles `entry` (relative to the repository) with examples/build.mjs into `<out>/<name>`. */
const bundle = async (entry: string, name: string): Promise<string> => {
  await promisify(execFile)(process.execPath, ["examples/build.mjs", entry, join(out, name)], {
    cwd: root,
  });
  return join(out, name, "main.mjs");
};

/** A bundled app, listening. */
interface Served {
  readonly url: string;
  /** Its resident memory now, in MB. */
  readonly rss: () => number;
  /** Everything it printed so far (stdout and stderr). */
  readonly output: () => string;
}

/**
 * Starts `file` as the docs say (`node --enable-source-maps`), from a directory of its own, with
 * `env` and a free port; resolves once it prints the URL it listens on.
 */
const serve = (
  file: string,
  nodeArgs: ReadonlyArray<string> = ["--enable-source-maps"],
  env: Readonly<Record<string, string>> = {},
) =>
  new Promise<Served>((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, file], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH, PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /(?:listening on|open) (http:\/\/\S+)/.exec(output)?.[1];
      if (url === undefined) return;
      const rss = () => {
        const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
        return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]) / 1024;
      };
      resolve({ url: url.replace("0.0.0.0", "127.0.0.1"), rss, output: () => output });
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) => reject(new Error(`${file} exited (${code}):\n${output}`)));
  });

const getJson = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
};

/** The packages the bundle still imports: node's builtins and the ones left external. */
const importsOf = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/^import .* from "([^"]+)";/gm)].map(([, from]) => from);

beforeAll(() => {
  if (!existsSync(join(root, "dist/src/index.js")))
    throw new Error("dist/src/index.js is missing: run `npm run build` (npm test does)");
});

describe.each([
  { face: "classic", example: "classic-hello" },
  { face: "Effect", example: "effect-hello" },
])("examples/$example bundled ($face face)", ({ example }) => {
  let file: string;
  let app: Served;
  beforeAll(async () => {
    file = await bundle(`examples/${example}/main.ts`, example);
    app = await serve(file);
  }, 120_000);

  it("is one module: Strata, effect and @effect/platform inside, node's builtins outside", () => {
    expect(importsOf(file).filter((from) => !from.startsWith("node:"))).toEqual([]);
    expect(existsSync(`${file}.map`)).toBe(true);
  });

  it("answers its routes, the user found through its service", async () => {
    expect(await getJson(`${app.url}/hello`)).toEqual({ status: 200, body: { hello: "world" } });
    expect(await getJson(`${app.url}/users/1`)).toEqual({
      status: 200,
      body: { id: 1, name: "Ada" },
    });
    expect(await getJson(`${app.url}/users/9`)).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: "No user 9" },
    });
    const invalid = await getJson(`${app.url}/users/abc`);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ statusCode: 400 });
  });
});

describe("a bundled app's classes and stack traces", () => {
  let file: string;
  let app: Served;
  beforeAll(async () => {
    file = await bundle("test/packaging/fixtures/bundled/main.ts", "fixture");
    app = await serve(file);
  }, 120_000);

  it("starts with source maps on in about the memory it takes without", async () => {
    // Node decodes the whole map (~30 MB) the first time it formats a stack trace, and effect
    // formats one as it loads: the bundle formats that one without the map.
    const [mapped, plain] = await Promise.all([serve(file), serve(file, [])]);
    expect(mapped.rss() - plain.rss()).toBeLessThan(15);
  }, 60_000);

  it("keeps the name of a decorated class that refers to itself", async () => {
    expect(await getJson(`${app.url}/name`)).toEqual({
      status: 200,
      body: { name: "NamedController" },
    });
  });

  it("logs a failure's stack trace at its line of the TypeScript source", async () => {
    expect(await getJson(`${app.url}/fail`)).toEqual({
      status: 500,
      body: { statusCode: 500, message: "Internal Server Error" },
    });
    await expect.poll(app.output).toContain("Error: bundled failure");
    expect(app.output()).toContain("test/packaging/fixtures/bundled/main.ts:15:11");
    expect(app.output()).not.toMatch(/fixture\/main\.mjs:\d+/);
  });
});

describe("examples/social-login bundled", () => {
  let file: string;
  let app: Served;
  const accounts = join(out, "accounts.db");
  beforeAll(async () => {
    file = await bundle("examples/social-login/main.ts", "social-login");
    // Its OAuth callbacks name its port: a free one, not 0.
    const port = String(await freePort());
    app = await serve(file, ["--enable-source-maps"], { ACCOUNTS_DB: accounts, PORT: port });
  }, 120_000);

  it("keeps libsql, a native addon, in node_modules and bundles @effect/sql", () => {
    const imports = importsOf(file).filter((from) => !from.startsWith("node:"));
    expect(imports).toEqual(["libsql"]);
    expect(readFileSync(file, "utf8")).toContain("@effect/sql/dist/esm/SqlClient.js");
  });

  it("signs in at the development identity provider; / and /me show the user from the SQLite store", async () => {
    const jar = new CookieJar(app.url);
    expect((await jar.fetch("GET", "/me")).status).toBe(401);
    const started = await jar.fetch("GET", "/auth/google");
    expect(started.status).toBe(302);
    const callback = await pickUser(new URL(started.headers.get("location") ?? ""), "ada");
    const done = await jar.fetch("GET", callback.pathname + callback.search);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    const home = await jar.fetch("GET", "/");
    expect(home.status).toBe(200);
    expect(home.text).toContain("Ada Lovelace");
    const me = await jar.fetch("GET", "/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ name: "Ada Lovelace", provider: "google" });
    expect(existsSync(accounts)).toBe(true);
    expect(app.output()).not.toContain("ERROR");
  });
});

describe("docs/deployment.md", () => {
  it("shows examples/build.mjs as it is", () => {
    const docs = readFileSync(join(root, "docs/deployment.md"), "utf8");
    const script = readFileSync(join(root, "examples/build.mjs"), "utf8");
    expect(docs).toContain(`\`\`\`js\n${script}\`\`\``);
  });
});
