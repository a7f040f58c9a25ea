#!/usr/bin/env node
// Startup and memory only: a quick companion to run.mjs. Not part of the test suite.
//
//   node startup.mjs [--spawns <n>=10] [--only a,b] [--load <s>=0] [--node-args "<flags>"] [--builds a,b]
//
// Each server is spawned `--spawns` times, interleaved (spawn 1 of every server, then spawn 2,
// ...), as `taskset -c 0 node [flags] <file>` with NODE_ENV=production and the same env as
// run.mjs. Startup = spawn until the first 200 on `/hello` (polled every 5 ms), RSS idle =
// VmRSS 1 s after that. With `--load <s>`, every route of run.mjs is then loaded by autocannon
// (`taskset -c 1`, 50 connections) for <s> seconds, and RSS after load = VmRSS after the last
// route, peak = VmHWM. Medians (min-max) are printed as a Markdown table, and with fastify in
// the run, each server's median startup and RSS after load divided by fastify's.
//
// The -bundled rows are the examples classic-hello and effect-hello built as docs/deployment.md
// says ("Production build": ../examples/build.mjs, into dist/bundled/ before the first spawn),
// run with `--enable-source-maps` as it says; -bundled-nomaps without it.

import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { dirname, join, resolve as resolvePath } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { serversOn } from "./baseline.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const HOST = "127.0.0.1";
const AUTOCANNON = join(HERE, "node_modules", "autocannon", "autocannon.js");

const STANDARD = ["/hello", "/users/42"];
/** A server to spawn: `file` with `env` added to the environment, loaded on `routes`. */
const server = (name, file, env = {}, routes = STANDARD) => ({ name, file, env, routes });
/**
 * An example app bundled by ../examples/build.mjs into dist/bundled/<example>/main.mjs, run with
 * `nodeArgs`; loaded on its two routes (user 1 exists, 42 would be its 404).
 */
const bundled = (name, example, nodeArgs) => ({
  ...server(name, `dist/bundled/${example}/main.mjs`, {}, ["/hello", "/users/1"]),
  example,
  nodeArgs,
});
const SERVERS = [
  server("node-http", "servers/node-http.mjs"),
  server("fastify", "servers/fastify.mjs"),
  server("effect-platform", "dist/esm/effect-platform.js"),
  server("strata-classic", "dist/cjs/strata-classic.js"),
  server("strata-classic-pipeline", "dist/cjs/strata-classic.js", { STRATA_VARIANT: "pipeline" }, [
    ...STANDARD,
    "/req-users/42",
    "/pipeline/42",
  ]),
  server("strata-classic-middleware", "dist/cjs/strata-classic.js", {
    STRATA_VARIANT: "middleware",
  }),
  server("strata-classic-oauth", "dist/cjs/strata-classic.js", { STRATA_VARIANT: "oauth" }, [
    ...STANDARD,
    "/auth/google",
  ]),
  server("strata-effect", "dist/cjs/strata-effect.js"),
  server("strata-classic-esm", "dist/esm/strata-classic.js"),
  server("strata-effect-esm", "dist/esm/strata-effect.js"),
  bundled("strata-classic-bundled", "classic-hello", ["--enable-source-maps"]),
  bundled("strata-effect-bundled", "effect-hello", ["--enable-source-maps"]),
  bundled("strata-classic-bundled-nomaps", "classic-hello", []),
  bundled("strata-effect-bundled-nomaps", "effect-hello", []),
];

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const spawns = Number(opt("spawns", 10));
const loadSeconds = Number(opt("load", 0));
const only = opt("only", "strata-classic,strata-effect").split(",");
const nodeArgs = opt("node-args", "").split(" ").filter(Boolean);
// `--builds a,b`: every Strata server once per Strata checkout (its root folder, built with
// `npm run build`), interleaved: the same compiled server run from a copy of dist/ whose
// `effect-strata` resolves to that checkout (baseline.mjs, `serversOn`).
const builds = opt("builds", "")
  .split(",")
  .filter(Boolean)
  .map((root, i) => ({ root, dir: serversOn(HERE, resolvePath(root), `startup-${i}`) }));
const selected = SERVERS.filter((s) => only.includes(s.name)).flatMap((s) =>
  builds.length === 0 || !s.name.startsWith("strata") || s.example !== undefined
    ? [s]
    : builds.map((b) => ({ ...s, name: `${s.name} [${b.root}]`, file: join(b.dir, s.file) })),
);

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, HOST, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const get = (port, path) =>
  new Promise((resolve, reject) => {
    const req = http.get({ host: HOST, port, path, agent: false, timeout: 1000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
  });

const status = (pid) => {
  const txt = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (f) => Number(txt.match(new RegExp(`^${f}:\\s+(\\d+)`, "m"))[1]) / 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
};

// utime+stime of a process in ms (USER_HZ 100): CPU spent, robust against other load.
const cpuMs = (pid) => {
  const st = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = st.slice(st.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
};

// Like run.mjs: wait (bounded) until both cores are mostly idle before a spawn.
const coreTicks = () =>
  readFileSync("/proc/stat", "utf8")
    .split("\n")
    .filter((l) => /^cpu /.test(l))
    .map((l) => l.split(/\s+/).slice(1).map(Number))
    .map(([u, n, sy, id, io, , , st]) => ({
      busy: u + n + sy + st,
      total: u + n + sy + id + io + st,
    }))[0];
async function waitForQuiet(maxMs = 20_000, pct = 10) {
  const end = performance.now() + maxMs;
  for (;;) {
    const a = coreTicks();
    await sleep(300);
    const b = coreTicks();
    if ((100 * (b.busy - a.busy)) / Math.max(1, b.total - a.total) < pct || performance.now() > end)
      return;
  }
}

const autocannon = (port, path, seconds) =>
  new Promise((resolve, reject) => {
    const c = spawn(
      "taskset",
      [
        "-c",
        "1",
        process.execPath,
        AUTOCANNON,
        "-c",
        "50",
        "-d",
        String(seconds),
        "--json",
        "-n",
        `http://${HOST}:${port}${path}`,
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    let out = "";
    c.stdout.on("data", (d) => (out += d));
    c.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out).requests.average)
        : reject(new Error(`autocannon ${code}`)),
    );
  });

async function once(server) {
  await waitForQuiet();
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(
    "taskset",
    [
      "-c",
      "0",
      process.execPath,
      ...nodeArgs,
      ...(server.nodeArgs ?? []),
      resolvePath(HERE, server.file),
    ],
    {
      cwd: HERE,
      env: { ...process.env, ...server.env, PORT: String(port), NODE_ENV: "production" },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  let exited = false;
  child.once("exit", () => (exited = true));
  try {
    let startup;
    let cpu;
    while (!exited && performance.now() - t0 < 30_000) {
      try {
        if ((await get(port, "/hello")) === 200) {
          startup = performance.now() - t0;
          cpu = cpuMs(child.pid);
          break;
        }
      } catch {}
      await sleep(5);
    }
    if (startup === undefined) throw new Error(`${server.name} failed to start`);
    await sleep(1000);
    const idle = status(child.pid).rss;
    let after = Number.NaN;
    let peak = Number.NaN;
    const rps = [];
    if (loadSeconds > 0) {
      for (const r of server.routes) rps.push(await autocannon(port, r, loadSeconds));
      ({ rss: after, hwm: peak } = status(child.pid));
    }
    return { startup, cpu, idle, after, peak, rps };
  } finally {
    child.kill("SIGKILL");
    if (!exited) await new Promise((r) => child.once("exit", r));
  }
}

const median = (xs) => {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return Number.NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const cell = (xs, d = 0) => {
  const v = xs.filter(Number.isFinite);
  if (!v.length) return "–";
  return `${median(v).toFixed(d)} (${Math.min(...v).toFixed(d)}–${Math.max(...v).toFixed(d)})`;
};

if (loadSeconds > 0 && !existsSync(AUTOCANNON)) throw new Error("npm install in bench/ first");
for (const example of new Set(selected.map((s) => s.example).filter(Boolean))) {
  execFileSync(
    process.execPath,
    [
      join(HERE, "..", "examples", "build.mjs"),
      join(HERE, "..", "examples", example, "main.ts"),
      join(HERE, "dist", "bundled", example),
    ],
    { stdio: "inherit" },
  );
}
const results = new Map(selected.map((s) => [s.name, []]));
for (let i = 0; i < spawns; i++) {
  for (const s of selected) {
    const r = await once(s);
    results.get(s.name).push(r);
    process.stderr.write(
      `[${i + 1}/${spawns}] ${s.name}: ${r.startup.toFixed(0)} ms (cpu ${r.cpu}), RSS ${r.idle.toFixed(0)}/${r.after.toFixed(0)}/${r.peak.toFixed(0)} MB${r.rps.length ? `, req/s ${r.rps.map((x) => Math.round(x)).join(" ")}` : ""}\n`,
    );
    await sleep(200);
  }
}
console.log(`\nnode ${nodeArgs.join(" ")} — ${spawns} spawns, load ${loadSeconds} s/route`);
console.log(
  "| server | startup ms | CPU ms to first 200 | RSS idle MB | RSS after load MB | peak MB | req/s per route |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const s of selected) {
  const rs = results.get(s.name);
  console.log(
    `| ${s.name} | ${cell(rs.map((r) => r.startup))} | ${cell(rs.map((r) => r.cpu))} | ${cell(rs.map((r) => r.idle))} | ${cell(rs.map((r) => r.after))} | ${cell(rs.map((r) => r.peak))} | ${s.routes.map((_, k) => median(rs.map((r) => r.rps[k])).toFixed(0)).join(" · ")} |`,
  );
}
const fastify = results.get("fastify");
if (fastify !== undefined) {
  const ratio = (rs, key) =>
    (median(rs.map((r) => r[key])) / median(fastify.map((r) => r[key]))).toFixed(2);
  console.log(
    "\n| server | startup ÷ fastify | CPU to first 200 ÷ fastify | RSS after load ÷ fastify |",
  );
  console.log("| --- | ---: | ---: | ---: |");
  for (const s of selected) {
    const rs = results.get(s.name);
    console.log(
      `| ${s.name} | ${ratio(rs, "startup")}x | ${ratio(rs, "cpu")}x | ${loadSeconds > 0 ? `${ratio(rs, "after")}x` : "–"} |`,
    );
  }
}
