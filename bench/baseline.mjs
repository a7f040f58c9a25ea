// `--baseline <git rev>`: another build of Strata to compare with in the same run. Not part of
// the test suite.
//
// The rev's tree is exported with `git archive` (nothing is registered in the repository: no
// worktree, no branch) into the system's temp folder, given the root's node_modules through a
// symlink, and built with its own `npm run build`. The build is kept by commit
// (`<tmp>/strata-bench-dist/<commit>`), so a second run against the same rev does not build
// again.
//
// The servers import `effect-strata` by name, resolved from the folder they run in. To run them on
// another build, `serversOn` copies the compiled servers (bench/dist) into a folder of their own
// whose node_modules links every package of bench/node_modules, except `effect-strata`, linked to
// that build: node resolves the symlinks to the same real files, so every module but Strata's is
// loaded from where the current rows load it, through as many lookups (no NODE_PATH, which adds a
// lookup to every resolution, and no loader hook, which adds work to every import).

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import { basename, join } from "node:path";

/** The full commit `rev` names in the repository at `root`; throws on an unknown rev. */
const commitOf = (root, rev) =>
  execFileSync("git", ["-C", root, "rev-parse", "--verify", `${rev}^{commit}`], {
    encoding: "utf8",
  }).trim();

/**
 * A copy of the compiled servers of `bench` (its dist/ and package.json) in
 * `<tmp>/strata-bench-servers/<name>`, where `effect-strata` resolves to the Strata checkout at
 * `strataRoot` (built) and every other package to bench/node_modules' own. Made afresh on each
 * call (the bench's dist may have changed); returns the folder, in which a row's `file`
 * (`dist/cjs/...`, `dist/esm/...`) is the same as in bench/.
 */
export function serversOn(bench, strataRoot, name) {
  const dir = join(os.tmpdir(), "strata-bench-servers", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  cpSync(join(bench, "dist"), join(dir, "dist"), { recursive: true });
  cpSync(join(bench, "package.json"), join(dir, "package.json"));
  const modules = join(bench, "node_modules");
  for (const entry of readdirSync(modules)) {
    if (entry === "effect-strata" || entry.startsWith(".")) continue;
    symlinkSync(join(modules, entry), join(dir, "node_modules", entry));
  }
  symlinkSync(strataRoot, join(dir, "node_modules", "effect-strata"), "dir");
  return dir;
}

/**
 * Builds (or finds, already built) Strata at `rev` and returns
 * `{ rev, commit, dir, cjs, esm }`: the exported tree, and the paths of its two `index.js`.
 */
export function buildBaseline(root, rev, log) {
  const commit = commitOf(root, rev);
  const dir = join(os.tmpdir(), "strata-bench-dist", commit);
  const cjs = join(dir, "dist", "cjs", "index.js");
  const esm = join(dir, "dist", "src", "index.js");
  if (existsSync(cjs) && existsSync(esm)) {
    log(`baseline ${rev} (${commit.slice(0, 9)}): already built in ${dir}`);
    return { rev, commit, dir, cjs, esm };
  }
  log(`baseline ${rev} (${commit.slice(0, 9)}): exporting and building in ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync("git", ["-C", root, "archive", "--format=tar", commit], {
    maxBuffer: 1 << 30,
  });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  execFileSync("npm", ["run", "build"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  if (!existsSync(cjs) || !existsSync(esm))
    throw new Error(`baseline ${rev}: its build made no ${cjs} or ${esm}`);
  return { rev, commit, dir, cjs, esm };
}

/**
 * `servers` with every Strata row doubled: the row as it is (this checkout's build, named
 * `<name>`) followed by the same row on the baseline's build (`<name> @<rev>`: the same compiled
 * server, run from `serversOn(bench, baseline.dir)`), so that a list run in order interleaves the
 * two builds. `baselineOf` maps a baseline row's name to its current one, for the ratios.
 */
export function withBaseline(servers, baseline, bench) {
  const rows = [];
  const baselineOf = new Map();
  const dir = serversOn(bench, baseline.dir, basename(baseline.dir));
  for (const server of servers) {
    rows.push(server);
    if (!server.name.startsWith("strata")) continue;
    const name = `${server.name} @${baseline.rev}`;
    rows.push({ ...server, name, file: join(dir, server.file) });
    baselineOf.set(name, server.name);
  }
  return { rows, baselineOf };
}
