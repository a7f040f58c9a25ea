// CPU per request, without sockets: the section of run.mjs that isolates each framework's own
// cost. Every server is loaded in a `cpu-probe.mjs` process pinned to core 0 (`taskset -c 0`),
// spawned once per round, rounds interleaved; a server's figure for a path is the median over
// its spawns of each spawn's median round (min–max across spawns).

import { spawn } from "node:child_process";
import { join, resolve as resolvePath } from "node:path";

/** The paths measured, with the answer each must give. */
export const CPU_PATHS = [
  { path: "/hello", status: 200, json: { hello: "world" } },
  { path: "/users/42", status: 200, json: { id: 42, name: "user 42" } },
  { path: "/users/abc", status: 400 },
];

/** Requests per timed round, and timed rounds per spawn (after a warm-up of one round). */
const REQUESTS = 20_000;
const PROBE_ROUNDS = 5;

/** Runs one probe of `server`; resolves with its JSON lines, or with `{ error }`. */
const probe = (here, server, track) =>
  new Promise((resolve) => {
    const child = track(
      spawn(
        "taskset",
        [
          "-c",
          "0",
          process.execPath,
          join(here, "cpu-probe.mjs"),
          resolvePath(here, server.file),
          String(REQUESTS),
          String(PROBE_ROUNDS),
          ...CPU_PATHS.map((p) => p.path),
        ],
        {
          cwd: here,
          env: { ...process.env, ...server.env, PORT: "0", NODE_ENV: "production" },
          stdio: ["ignore", "pipe", "pipe"],
        },
      ),
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const killer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.once("exit", (code, signal) => {
      clearTimeout(killer);
      if (code !== 0)
        return resolve({ error: `probe exited ${code ?? signal}: ${err.trim().slice(-300)}` });
      try {
        resolve({
          lines: out
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l)),
        });
      } catch (e) {
        resolve({ error: `cannot parse probe output: ${e.message}` });
      }
    });
  });

/** Why a probed answer is wrong, or `undefined` when it is the expected one. */
const wrongAnswer = (expected, line) => {
  if (line === undefined) return `${expected.path}: no answer`;
  if (line.status !== expected.status)
    return `${expected.path} -> ${line.status} (expected ${expected.status})`;
  if (expected.json !== undefined && line.body !== JSON.stringify(expected.json))
    return `${expected.path} -> ${line.body.slice(0, 120)} (expected ${JSON.stringify(expected.json)})`;
  return undefined;
};

/**
 * Probes every server `rounds` times, interleaved. Returns, per server name, either
 * `{ error }` or `{ paths: { [path]: { median, min, max } } }` in microseconds a request.
 */
export async function measureCpu(servers, { here, rounds, track, waitForQuiet, median, log }) {
  const runs = new Map(servers.map((s) => [s.name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const server of servers) {
      const previous = runs.get(server.name);
      if (previous.some((r) => r.error)) continue;
      await waitForQuiet();
      log(`cpu round ${round}/${rounds}: ${server.name}`);
      const result = await probe(here, server, track);
      const wrong = result.lines && CPU_PATHS.map((p, i) => wrongAnswer(p, result.lines[i]));
      const error = result.error ?? wrong.find((w) => w !== undefined);
      if (error) log(`  ${server.name}: ${error}`);
      previous.push(error ? { error } : { us: result.lines.map((l) => median(l.us)) });
    }
  }
  const summary = new Map();
  for (const [name, results] of runs) {
    const failed = results.find((r) => r.error);
    if (failed) {
      summary.set(name, { error: failed.error });
      continue;
    }
    const paths = {};
    CPU_PATHS.forEach(({ path }, i) => {
      const values = results.map((r) => r.us[i]);
      paths[path] = { median: median(values), min: Math.min(...values), max: Math.max(...values) };
    });
    summary.set(name, { paths });
  }
  return summary;
}

const fmt = (n) => n.toFixed(2);
const cell = (s) => `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`;

/** The CPU table: microseconds a request, and what each server adds to `baseline` on each path. */
export function renderCpuTable(summary, baseline) {
  const base = summary.get(baseline)?.paths;
  const over = (s, path) => {
    if (base === undefined) return "–";
    const added = s.median - base[path].median;
    return `${added < 0 ? "" : "+"}${fmt(added)}`;
  };
  const head = [
    "server",
    "/hello µs (median, min–max)",
    `over ${baseline}`,
    "/users/42 µs",
    `over ${baseline}`,
    "/users/42 − /hello",
    "/users/abc (400) µs",
  ];
  const lines = [
    `| ${head.join(" | ")} |`,
    `|${head.map((_, i) => (i === 0 ? " --- " : " ---: ")).join("|")}|`,
  ];
  for (const [name, s] of summary) {
    if (s.error) {
      lines.push(`| ${name} | ${s.error.replace(/\|/g, "\\|").replace(/\s+/g, " ")} | | | | | |`);
      continue;
    }
    const hello = s.paths["/hello"];
    const users = s.paths["/users/42"];
    lines.push(
      `| ${name} | ${cell(hello)} | ${over(hello, "/hello")} | ${cell(users)} | ${over(users, "/users/42")} | ${fmt(users.median - hello.median)} | ${cell(s.paths["/users/abc"])} |`,
    );
  }
  return lines.join("\n");
}
