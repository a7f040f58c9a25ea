// `--baseline <git rev>`: another build of Strata to compare with in the same run. Not part of
// the test suite.
//
// The rev's tree is exported with `git archive` (nothing is registered in the repository: no
// worktree, no branch) into the system's temp folder, given the root's node_modules through a
// symlink, and built with its own `npm run build`. The build is kept by commit
// (`<tmp>/strata-bench-dist/<commit>`), so a second run against the same rev does not build
// again. Servers then load it with STRATA_DIST (servers/lib/strata.ts).

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";

/** The full commit `rev` names in the repository at `root`; throws on an unknown rev. */
const commitOf = (root, rev) =>
  execFileSync("git", ["-C", root, "rev-parse", "--verify", `${rev}^{commit}`], {
    encoding: "utf8",
  }).trim();

/**
 * Builds (or finds, already built) Strata at `rev` and returns its entries:
 * `{ rev, commit, cjs, esm }`, `cjs` and `esm` being the paths of its two `index.js`.
 */
export function buildBaseline(root, rev, log) {
  const commit = commitOf(root, rev);
  const dir = join(os.tmpdir(), "strata-bench-dist", commit);
  const cjs = join(dir, "dist", "cjs", "index.js");
  const esm = join(dir, "dist", "src", "index.js");
  if (existsSync(cjs) && existsSync(esm)) {
    log(`baseline ${rev} (${commit.slice(0, 9)}): already built in ${dir}`);
    return { rev, commit, cjs, esm };
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
  return { rev, commit, cjs, esm };
}

/**
 * `servers` with every Strata row doubled: the row as it is (this checkout's build, named
 * `<name>`) followed by the same row on the baseline's build (`<name> @<rev>`), so that a list
 * run in order interleaves the two builds. `baselineOf` maps a baseline row's name to its
 * current one, for the ratios.
 */
export function withBaseline(servers, baseline) {
  const rows = [];
  const baselineOf = new Map();
  for (const server of servers) {
    rows.push(server);
    if (!server.name.startsWith("strata")) continue;
    const esm = server.env?.STRATA_FORMAT === "esm";
    const name = `${server.name} @${baseline.rev}`;
    rows.push({
      ...server,
      name,
      env: { ...server.env, STRATA_DIST: esm ? baseline.esm : baseline.cjs },
    });
    baselineOf.set(name, server.name);
  }
  return { rows, baselineOf };
}
