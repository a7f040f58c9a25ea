import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
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
import { fixtureApps, getJson } from "./fixtureApps.js";

// The package as an app gets it: `npm pack` (its prepack removes the repository-only
// `strata-source` condition), then the README's install command with the tarball for
// `effect-strata`, into a fresh app outside this repository. The packages come from the npm registry
// (or npm's cache); no install script runs. Slow: one `npm install` per case.
const root = fileURLToPath(new URL("../../", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

const INSTALL_TIMEOUT = 300_000;
/** For a test that runs npm, tsc or an app: slower than a request, and the machine is shared. */
const SLOW = 60_000;
const work = mkdtempSync(join(tmpdir(), "strata-install-"));
afterAll(() => rmSync(work, { recursive: true, force: true }), 60_000);

/** The environment without the `npm_*` variables of an enclosing `npm test`. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")),
);

/** Runs npm in `cwd`; its exit status and output, never a throw. */
const npm = (cwd: string, ...args: ReadonlyArray<string>) =>
  spawnSync("npm", ["--no-audit", "--no-fund", ...args], {
    cwd,
    env,
    encoding: "utf8",
    timeout: INSTALL_TIMEOUT,
  });

/** The packages of the README's install command (`effect-strata` first). */
const readmeInstall = () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const line = readme.split("\n").find((text) => text.startsWith("npm install effect-strata "));
  if (line === undefined) throw new Error("README.md has no `npm install effect-strata ...` line");
  return line.split(/\s+/).slice(2);
};

/** Packs a copy of the package (the repository's package.json is never rewritten). */
const pack = () => {
  const stage = join(work, "stage");
  for (const path of [...pkg.files, "package.json", "README.md", "LICENSE"])
    cpSync(join(root, path), join(stage, path), { recursive: true });
  cpSync(join(root, "scripts/source-condition.mjs"), join(stage, "scripts/source-condition.mjs"));
  const packed = npm(stage, "pack", "--json", "--pack-destination", work);
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  return join(work, JSON.parse(packed.stdout)[0].filename);
};

/** A fresh app folder with a package.json and the given files from fixtures/. */
const newApp = (name: string, fixtures: ReadonlyArray<string>) => {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name, version: "0.0.0", private: true })}\n`,
  );
  for (const file of fixtures) cpSync(fixture(file), join(dir, file));
  return dir;
};

/** Every file under `dir`, relative to it. */
const filesOf = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));

let tarball: string;
beforeAll(() => {
  for (const built of ["dist/cjs/index.js", "dist/src/index.js"])
    if (!existsSync(join(root, built)))
      throw new Error(`${built} is missing: run \`npm run build\` (npm test does)`);
  tarball = pack();
}, INSTALL_TIMEOUT);

describe("the tarball installed with the README's command (Effect 3)", () => {
  const run = fixtureApps();
  let app: string;
  let installed: string;
  beforeAll(() => {
    app = newApp("app-effect3", ["apps.cjs", "main.cjs", "main.mjs", "classic.ts"]);
    const [, ...peers] = readmeInstall();
    // @types/node for the TypeScript fixture, as a TypeScript app has it.
    const result = npm(app, "install", "--ignore-scripts", tarball, ...peers, "@types/node@^20");
    if (result.status !== 0) throw new Error(`npm install failed:\n${result.stderr}`);
    installed = join(app, "node_modules", "effect-strata");
  }, INSTALL_TIMEOUT);

  it(
    "has one copy of effect and of each @effect package, and no peer missing or invalid",
    () => {
      // The required peers; optional ones (rxjs, class-validator, SQL clients) are not installed.
      const optional: Record<string, { optional?: boolean }> = pkg.peerDependenciesMeta ?? {};
      const required = Object.keys(pkg.peerDependencies).filter(
        (name) => optional[name]?.optional !== true,
      );
      expect(required).toEqual(expect.arrayContaining(["effect", "@effect/platform"]));
      for (const name of required) {
        const listed = npm(app, "ls", name, "--all", "--parseable");
        // `npm ls` fails on a missing, invalid or extraneous package anywhere in the tree.
        expect(listed.status, listed.stderr).toBe(0);
        const copies = new Set(listed.stdout.trim().split("\n"));
        expect([...copies]).toEqual([join(app, "node_modules", name)]);
      }
      const effect = JSON.parse(
        readFileSync(join(app, "node_modules/effect/package.json"), "utf8"),
      );
      expect(effect.version).toMatch(/^3\./);
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
      expect.arrayContaining([".", "./oauth", "./testing", "./session", "./accounts"]),
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
    "compiles a decorated TypeScript app against the installed types, which serves",
    async () => {
      writeFileSync(
        join(app, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "nodenext",
            strict: true,
            experimentalDecorators: true,
            emitDecoratorMetadata: true,
            types: ["node"],
            outDir: "out",
          },
          files: ["classic.ts"],
        }),
      );
      execFileSync(join(root, "node_modules/.bin/tsc"), ["-p", app], { cwd: app, env });
      const started = await run(join("out", "classic.js"), 1, { cwd: app, env });
      expect(await getJson(`${started.classic}/users/7`)).toEqual({
        status: 200,
        body: { id: 7, name: "user 7" },
      });
      expect(await getJson(`${started.classic}/users/x`)).toMatchObject({ status: 400 });
    },
    SLOW,
  );
});

describe("the tarball next to Effect 4", () => {
  it(
    "is refused by npm (ERESOLVE, a peer conflict over effect), so no app runs",
    () => {
      const app = newApp("app-effect4", ["main.cjs", "apps.cjs"]);
      const result = npm(app, "install", "--ignore-scripts", tarball, "effect@4");
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
