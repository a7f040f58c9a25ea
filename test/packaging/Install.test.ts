import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/freePort.js";
import { fixtureApps, getJson, servingApps } from "./fixtureApps.js";

// The package as an app gets it before it is published, by the commands of docs/installing.md,
// run as written: `npm pack --pack-destination ../my-app` in a stand-in for a built clone
// (`strata/`: the package's files; its prepack removes the repository-only `strata-source`
// condition), then the tarball's `npm install` with the peers in `my-app/` (CommonJS), and the
// `file:` dependency in `my-esm-app/` (an ES module app, with docs/testing.md's test tooling).
// The packages come from the npm registry (or npm's cache); no install script runs. Slow: one
// `npm install` per app.
const root = fileURLToPath(new URL("../../", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const tsc = join(root, "node_modules/.bin/tsc");

const INSTALL_TIMEOUT = 300_000;
/** For a test that runs npm, tsc or an app: slower than a request, and the machine is shared. */
const SLOW = 60_000;
const work = mkdtempSync(join(tmpdir(), "strata-install-"));
afterAll(() => rmSync(work, { recursive: true, force: true }), 60_000);

/**
 * The environment without the `npm_*` variables of an enclosing `npm test`, nor the `VITEST*`
 * ones of this run (the fresh app's own vitest run must not take itself for a worker), and
 * without colours (its output is read).
 */
const env = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !name.toLowerCase().startsWith("npm_") &&
        !name.startsWith("VITEST") &&
        name !== "FORCE_COLOR",
    ),
  ),
  NO_COLOR: "1",
};

/**
 * Runs a command in `cwd` without blocking this worker (a long synchronous run starves vitest's
 * RPC): its exit status and output, never a rejection.
 */
const exec = (command: string, args: ReadonlyArray<string>, cwd: string, timeout: number) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env, timeout });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("error", (error) => resolve({ status: null, stdout, stderr: String(error) }));
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });

/** Runs npm in `cwd`. */
const npm = (cwd: string, ...args: ReadonlyArray<string>) =>
  exec("npm", ["--no-audit", "--no-fund", ...args], cwd, INSTALL_TIMEOUT);

/** The fenced blocks of a markdown file of this repository: language and code. */
const blocksOf = (file: string) =>
  [...readFileSync(join(root, file), "utf8").matchAll(/^```(\w+)[^\n]*\n([\s\S]*?)^```$/gm)].map(
    ([, lang, code]) => ({ lang, code: code ?? "" }),
  );

/** The one block of `file` in `lang` that contains `text`. */
const blockWith = (file: string, lang: string, text: string) => {
  const found = blocksOf(file).filter((block) => block.lang === lang && block.code.includes(text));
  if (found.length !== 1) throw new Error(`${file}: ${found.length} ${lang} blocks with ${text}`);
  return found[0]?.code ?? "";
};

/** The commands of a shell block: its lines without comments, each split into words. */
const commandsOf = (code: string) =>
  code
    .split("\n")
    .map((line) => line.replace(/(^|\s)#.*$/, "").trim())
    .filter((line) => line !== "")
    .map((line) => line.split(/\s+/));

const installing = "docs/installing.md";
/** docs/installing.md's route before publication: the clone's commands, then the app's. */
const tarballRoute = () => {
  const [build, pack, install] = commandsOf(blockWith(installing, "sh", "npm pack"));
  if (build === undefined || pack === undefined || install === undefined)
    throw new Error(`${installing}: the tarball route has fewer than three commands`);
  return { build, pack, install };
};

/** A compiler configuration of docs/installing.md, by its `module`. */
const tsconfigOf = (module: "nodenext" | "commonjs") =>
  blockWith(installing, "json", `"module": "${module}"`);

/** A fresh folder in the work directory with a package.json and the given files from fixtures/. */
const newApp = (
  name: string,
  fixtures: ReadonlyArray<string>,
  manifest: Record<string, unknown> = {},
) => {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name, version: "0.0.0", private: true, ...manifest })}\n`,
  );
  for (const file of fixtures) cpSync(fixture(file), join(dir, file));
  return dir;
};

/** Writes `code` to `dir/path`, creating its folders. */
const write = (dir: string, path: string, code: string) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), code);
};

/** Every file under `dir`, relative to it. */
const filesOf = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));

/** The required peers; optional ones (rxjs, class-validator, SQL clients) need not be there. */
const requiredPeers = () => {
  const optional: Record<string, { optional?: boolean }> = pkg.peerDependenciesMeta ?? {};
  return Object.keys(pkg.peerDependencies).filter((name) => optional[name]?.optional !== true);
};

/** `npm ls` of each required peer in `app`: exit status 0 and one copy, the app's own. */
const expectOneCopyOfEachPeer = async (app: string) => {
  const required = requiredPeers();
  expect(required).toEqual(expect.arrayContaining(["effect", "@effect/platform"]));
  for (const name of required) {
    const listed = await npm(app, "ls", name, "--all", "--parseable");
    // `npm ls` fails on a missing, invalid or extraneous package anywhere in the tree.
    expect(listed.status, listed.stderr).toBe(0);
    const copies = new Set(listed.stdout.trim().split("\n"));
    expect([...copies]).toEqual([join(app, "node_modules", name)]);
  }
  const effect = JSON.parse(readFileSync(join(app, "node_modules/effect/package.json"), "utf8"));
  expect(effect.version).toMatch(/^3\./);
};

/** Compiles `app` with the given tsconfig (TypeScript 7, this repository's) into `app/dist`. */
const compile = async (app: string, tsconfig: string) => {
  writeFileSync(join(app, "tsconfig.json"), tsconfig);
  const compiled = await exec(tsc, ["-p", app], app, SLOW);
  expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);
};

/** `code` listening on `port` instead of the samples' 3000. */
const onPort = (code: string, port: number) => {
  expect(code).toContain("listen(3000)");
  return code.replace("listen(3000)", `listen(${port})`);
};

/** The stand-in for a built clone of this repository: the files `npm pack` reads. */
const clone = join(work, "strata");
const tarballName = `effect-strata-${pkg.version}.tgz`;

let tarball: string;
beforeAll(async () => {
  for (const built of ["dist/cjs/index.js", "dist/src/index.js"])
    if (!existsSync(join(root, built)))
      throw new Error(`${built} is missing: run \`npm run build\` (npm test does)`);
  // The clone's `npm install && npm run build`: this run's dist/ (npm test builds it first).
  expect(tarballRoute().build).toEqual(["npm", "install", "&&", "npm", "run", "build"]);
  for (const path of [...pkg.files, "package.json", "README.md", "LICENSE"])
    cpSync(join(root, path), join(clone, path), { recursive: true });
  cpSync(join(root, "scripts/source-condition.mjs"), join(clone, "scripts/source-condition.mjs"));
  // The clone's `npm pack` as written too, for the `file:` dependency (`../strata/<tarball>`).
  const packed = await npm(clone, "pack");
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  tarball = join(clone, tarballName);
}, INSTALL_TIMEOUT);

describe("docs/installing.md and the README", () => {
  it("install the same tarball with the same peers, and name the published package with them", () => {
    const { install } = tarballRoute();
    expect(install.slice(0, 3)).toEqual(["npm", "install", `./${tarballName}`]);
    // Every required peer, with the range of package.json.
    const peers = install.slice(3);
    expect([...peers].sort()).toEqual(
      requiredPeers()
        .map((name) => `${name}@${pkg.peerDependencies[name]}`)
        .sort(),
    );
    const [published] = commandsOf(blockWith(installing, "sh", "npm install effect-strata "));
    expect(published).toEqual(["npm", "install", "effect-strata", ...peers]);
    const readme = commandsOf(blockWith("README.md", "sh", "npm pack"));
    expect(readme).toContainEqual(install);
    expect(readme).toContainEqual(["npm", "run", "build", "&&", ...tarballRoute().pack]);
    // The file: dependency names the same peers.
    const { dependencies } = JSON.parse(blockWith(installing, "json", '"file:'));
    expect(dependencies["effect-strata"]).toBe(`file:../strata/${tarballName}`);
    expect(
      Object.entries(dependencies)
        .slice(1)
        .map(([name, range]) => `${name}@${range}`),
    ).toEqual(peers);
  });
});

describe("a CommonJS app: the tarball route of docs/installing.md (Effect 3)", () => {
  const run = fixtureApps();
  const serve = servingApps();
  const app = join(work, "my-app");
  let installed: string;
  beforeAll(async () => {
    newApp("my-app", ["apps.cjs", "main.cjs", "main.mjs"]);
    const { pack, install } = tarballRoute();
    // In the clone, as written: the tarball lands in ../my-app.
    const packed = await npm(clone, ...pack.slice(1));
    if (packed.status !== 0) throw new Error(`${pack.join(" ")} failed:\n${packed.stderr}`);
    // In the app, as written, plus `--ignore-scripts` and the TypeScript app's @types/node.
    const result = await npm(app, "--ignore-scripts", ...install.slice(1), "@types/node@^20");
    if (result.status !== 0) throw new Error(`npm install failed:\n${result.stderr}`);
    installed = join(app, "node_modules", "effect-strata");
  }, INSTALL_TIMEOUT);

  it(
    "has one copy of effect and of each @effect package, and no peer missing or invalid",
    async () => {
      const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
      expect(manifest.dependencies["effect-strata"]).toBe(`file:${tarballName}`);
      await expectOneCopyOfEachPeer(app);
    },
    SLOW,
  );

  it("ships no repository-only condition, no maps, and every file its exports name", () => {
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect(JSON.stringify(manifest.exports)).not.toContain("strata-source");
    expect(manifest.peerDependencies).toEqual(pkg.peerDependencies);
    const files = filesOf(installed);
    expect(files).toContain("LICENSE");
    expect(files.filter((file) => file.endsWith(".map"))).toEqual([]);
    expect(files.filter((file) => file.startsWith("src/"))).toEqual([]);
    const targets = Object.values(manifest.exports).flatMap((entry) =>
      Object.values(entry as Record<string, { types: string; default: string }>).flatMap(
        (target) => [target.types, target.default],
      ),
    );
    // Types and code, for import and require, of every entry point.
    expect(targets).toHaveLength(Object.keys(manifest.exports).length * 4);
    expect(Object.keys(manifest.exports)).toEqual(
      expect.arrayContaining([".", "./effect", "./oauth", "./testing", "./session", "./accounts"]),
    );
    for (const target of targets) expect(files).toContain(target.slice(2));
  });

  it.each([
    { format: "CommonJS", file: "main.cjs", lines: 2 },
    { format: "ESM", file: "main.mjs", lines: 1 },
  ])(
    "serves both faces to an app on the $format build",
    async ({ file, lines }) => {
      const started = await run(file, lines, { cwd: app, env });
      expect(await getJson(`${started.classic}/users/42`)).toEqual({
        status: 200,
        body: { id: 42, name: "user 42" },
      });
      expect(await getJson(`${started.effect}/greeting`)).toEqual({
        status: 200,
        body: { greeting: "hello" },
      });
      // CommonJS: @effect/platform-node's server, loaded on demand, is the app's CommonJS copy.
      if (file === "main.cjs") expect(started.lines[1]).toBe("required 1");
    },
    SLOW,
  );

  it(
    "compiles with the CommonJS tsconfig (TypeScript 7): the CommonJS hello and a decorated app serve",
    async () => {
      const port = await freePort();
      const hello = blockWith(installing, "ts", "bootstrap()");
      write(app, "src/main.ts", onPort(hello, port));
      cpSync(fixture("classic.ts"), join(app, "src/classic.ts"));
      await compile(app, tsconfigOf("commonjs"));
      expect(readFileSync(join(app, "dist/main.js"), "utf8")).toContain('require("effect-strata")');
      await serve("dist/main.js", `http://127.0.0.1:${port}/hello/Ada`, { cwd: app, env });
      expect(await getJson(`http://127.0.0.1:${port}/hello/Ada`)).toEqual({
        status: 200,
        body: { hello: "Ada" },
      });
      const started = await run(join("dist", "classic.js"), 1, { cwd: app, env });
      expect(await getJson(`${started.classic}/users/7`)).toEqual({
        status: 200,
        body: { id: 7, name: "user 7" },
      });
      expect(await getJson(`${started.classic}/users/x`)).toMatchObject({ status: 400 });
    },
    SLOW,
  );
});

describe("an ES module app: the file: dependency of docs/installing.md, and docs/testing.md's tooling", () => {
  const serve = servingApps();
  const app = join(work, "my-esm-app");
  beforeAll(async () => {
    const { dependencies } = JSON.parse(blockWith(installing, "json", '"file:'));
    // class-validator and class-transformer for the DTO test; @types/node for the tsconfig.
    newApp("my-esm-app", [], {
      type: "module",
      dependencies: {
        ...dependencies,
        "class-validator": "^0.15.1",
        "class-transformer": "^0.5.1",
      },
      devDependencies: { "@types/node": "^20.19.0" },
    });
    // docs/testing.md's two `npm install -D` commands, in one run of npm that also installs the
    // dependencies of package.json (its `npm install`).
    const tooling = commandsOf(
      blocksOf("docs/testing.md")
        .filter((block) => block.lang === "sh" && block.code.includes("npm install -D"))
        .map((block) => block.code)
        .join("\n"),
    );
    expect(tooling.map((command) => command.slice(0, 3))).toEqual([
      ["npm", "install", "-D"],
      ["npm", "install", "-D"],
    ]);
    const dev = await npm(
      app,
      "install",
      "--ignore-scripts",
      "-D",
      ...tooling.flatMap((c) => c.slice(3)),
    );
    if (dev.status !== 0) throw new Error(`npm install -D failed:\n${dev.stderr}`);
  }, INSTALL_TIMEOUT);

  it(
    "installs a copy of the tarball (no link to the clone) and one copy of each peer",
    async () => {
      expect(lstatSync(join(app, "node_modules/effect-strata")).isSymbolicLink()).toBe(false);
      await expectOneCopyOfEachPeer(app);
    },
    SLOW,
  );

  it(
    "compiles the README's classic hello with the ES module tsconfig (TypeScript 7), which serves",
    async () => {
      const port = await freePort();
      const hello = blockWith("README.md", "ts", "class HelloController");
      expect(hello).toContain("await new StrataApp(AppModule).listen(3000)");
      write(app, "src/main.ts", onPort(hello, port));
      await compile(app, tsconfigOf("nodenext"));
      await serve("dist/main.js", `http://127.0.0.1:${port}/hello/Ada`, { cwd: app, env });
      expect(await getJson(`http://127.0.0.1:${port}/hello/Ada`)).toEqual({
        status: 200,
        body: { hello: "Ada" },
      });
    },
    SLOW,
  );

  it(
    "runs the guide's MockProvider test, and a partial update through a class-validator DTO under the guide's swc config",
    async () => {
      write(app, "vitest.config.ts", blockWith("docs/testing.md", "ts", "unplugin-swc"));
      // unplugin-swc also reads tsconfig.json's useDefineForClassFields: the app's tsconfig here
      // leaves it out (as NestJS's does), so the guide's config alone must keep the DTO's fields.
      const { compilerOptions, ...tsconfig } = JSON.parse(tsconfigOf("nodenext"));
      const { useDefineForClassFields, ...withoutIt } = compilerOptions;
      expect(useDefineForClassFields).toBe(false);
      write(app, "tsconfig.json", JSON.stringify({ ...tsconfig, compilerOptions: withoutIt }));
      write(
        app,
        "test/testing/MockProvider.test.ts",
        blockWith("docs/testing.md", "ts", "test/testing/MockProvider.test.ts"),
      );
      // The guide's test imports the example app as a relative module: it comes along.
      cpSync(
        join(root, "examples/effect-social-login/app.ts"),
        join(app, "examples/effect-social-login/app.ts"),
      );
      cpSync(fixture("partial-update.spec.ts"), join(app, "test/partial-update.spec.ts"));
      const vitest = await exec(
        process.execPath,
        [join(app, "node_modules/vitest/vitest.mjs"), "run", "--reporter=verbose"],
        app,
        SLOW,
      );
      const output = vitest.stdout + vitest.stderr;
      expect(vitest.status, output).toBe(0);
      expect(output).toContain("signs in, opens a protected route with the session, signs out");
      expect(output).toContain("a PATCH of the age keeps the name");
      expect(output).toMatch(/Tests\s+2 passed \(2\)/);
    },
    SLOW,
  );
});

describe("the tarball next to Effect 4", () => {
  it(
    "is refused by npm (ERESOLVE, a peer conflict over effect), so no app runs",
    async () => {
      const app = newApp("app-effect4", ["main.cjs", "apps.cjs"]);
      const result = await npm(app, "install", "--ignore-scripts", tarball, "effect@4");
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain("ERESOLVE");
      // npm names the first peer it cannot place next to effect 4: Strata's effect range, or
      // that of an @effect package Strata peers on.
      expect(result.stderr).toMatch(/Found: effect@4\./);
      expect(result.stderr).toMatch(/peer effect@"\^3\.[\d.]+" from (strata|@effect\/)/);
      expect(result.stderr).toContain(`from effect-strata@${pkg.version}`);
      expect(existsSync(join(app, "node_modules", "effect-strata"))).toBe(false);
      const started = spawnSync(process.execPath, ["main.cjs"], {
        cwd: app,
        env,
        encoding: "utf8",
      });
      expect(started.status).not.toBe(0);
      expect(started.stderr).toContain("Cannot find module 'effect-strata'");
    },
    INSTALL_TIMEOUT,
  );
});
