#!/usr/bin/env node
// Strata HTTP benchmark runner. Not part of the test suite.
//
//   node run.mjs [--duration <s>] [--rounds <n>] [--warmup <s>] [--cpu-rounds <n>] [--only a,b,c] [--out <file>]
//                [--baseline <git rev>] [--generators <n>]
//   node run.mjs --instructions [instructions.mjs options]   (instructions per request, valgrind)
//
// Every server is spawned as `taskset -c 0 node <file>` (core 0) and loaded by autocannon
// running as `taskset -c 1 node autocannon ...` (core 1), 50 connections, pipelining 1,
// against 127.0.0.1 only. Rounds are interleaved (round 1: every server, round 2: ...);
// the report shows medians over rounds with min-max, and ratios to raw node:http. Then the
// servers without variants (and rows marked `cpu`) are measured in-process, without sockets (cpu.mjs): the CPU each
// spends on one request.
// TypeScript servers must have been compiled into dist/ first (`npm run build`).

import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { dirname, join, relative, resolve as resolvePath } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { buildBaseline, withBaseline } from "./baseline.mjs";
import { CPU_PATHS, measureCpu, renderCpuTable } from "./cpu.mjs";
import { NODE_HTTP_ROWS } from "./node-http-rows.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const HOST = "127.0.0.1"; // the only target, ever
const BASELINE = "node-http";

// ---------------------------------------------------------------- servers

const ROUTES = [
  { key: "hello", path: "/hello" },
  { key: "users", path: "/users/42" },
];
// Extra routes some servers also serve: each is compared with the server's own `compareTo` route.
/** An extra `<prefix>/:id` route answering like `/users/:id`, compared with it. */
const userRoute = (key, prefix, what) => ({
  key,
  path: `${prefix}/42`,
  label: `\`${prefix}/:id\` (${what})`,
  compareTo: "users",
  expect: { status: 200, json: { id: 42, name: "user 42" } },
  rejects: `${prefix}/abc`,
});
const REQ_USERS = userRoute("reqUsers", "/req-users", "request-scoped");
const PIPELINE = userRoute("pipeline", "/pipeline", "1 guard, 1 pipe, 1 interceptor");
// The same handler behind NestJS's transform interceptor, `next.handle().pipe(map(...))`.
const RX_MAP = {
  ...userRoute("rxMap", "/rx-users", "an rxjs `map` interceptor"),
  expect: { status: 200, json: { data: { id: 42, name: "user 42" } } },
};
const USERS_TAG = userRoute(
  "usersTag",
  "/users-tag",
  "the service read from the request's context",
);
// `/session-users/:id` behind `SessionGuard`, signed in: the runner first GETs `login` and sends
// the session cookie it sets with every request of the route (checks and load alike).
const SESSION_USERS = {
  ...userRoute("sessionUsers", "/session-users", "behind `SessionGuard`, signed in"),
  login: "/login",
};
const AUTH = {
  key: "auth",
  path: "/auth/google",
  label: "`/auth/google` (state, PKCE, sealed cookie, 302)",
  compareTo: "hello",
  expect: { status: 302 },
};

// The full stack (CORS allow-list, security headers, rate limit, timeout, session guard): every
// request is sent the allowed `Origin`, and every answer must carry the stack's headers
// (bench/servers/lib/middleware-stack.ts, servers/fastify-stack.mjs).
const STACK = {
  extraRoutes: [SESSION_USERS],
  headers: { origin: "https://app.example.com" },
  expectHeaders: [
    "access-control-allow-origin",
    "vary",
    "x-content-type-options",
    "x-frame-options",
    "referrer-policy",
    "ratelimit-limit",
    "ratelimit-remaining",
  ],
};

const SERVERS = [
  ...NODE_HTTP_ROWS,
  { name: "fastify", file: "servers/fastify.mjs" },
  { name: "express", file: "servers/express.mjs" },
  { name: "nest-express", file: "dist/esm/nest-express.js" },
  { name: "nest-fastify", file: "dist/esm/nest-fastify.js" },
  { name: "nest-fastify-rxjs", file: "dist/esm/nest-fastify-rxjs.js", extraRoutes: [RX_MAP] },
  { name: "effect-platform", file: "dist/esm/effect-platform.js" },
  { name: "effect-platform-notracer", file: "dist/esm/effect-platform-notracer.js" },
  // The standard two routes only, so that its RSS after load compares with the other servers'.
  { name: "strata-classic", file: "dist/cjs/strata-classic.js" },
  { name: "strata-classic-rxjs", file: "dist/cjs/strata-classic-rxjs.js", extraRoutes: [RX_MAP] },
  {
    name: "strata-classic-pipeline",
    file: "dist/cjs/strata-classic.js",
    env: { STRATA_VARIANT: "pipeline" },
    extraRoutes: [REQ_USERS, PIPELINE],
  },
  {
    name: "strata-classic-oauth",
    file: "dist/cjs/strata-classic.js",
    env: { STRATA_VARIANT: "oauth" },
    extraRoutes: [AUTH],
  },
  {
    name: "strata-classic-middleware",
    file: "dist/cjs/strata-classic.js",
    env: { STRATA_VARIANT: "middleware" },
  },
  // Sessions: the guarded route with the sealed-cookie store, then with Redis (see `startRedis`).
  {
    name: "strata-classic-session",
    file: "dist/cjs/strata-session.js",
    extraRoutes: [SESSION_USERS],
  },
  {
    name: "strata-classic-session-redis",
    file: "dist/cjs/strata-session.js",
    env: { SESSION_STORE: "redis" },
    extraRoutes: [SESSION_USERS],
    redis: true,
  },
  // The full stack on fastify's plugins, and on Strata's middleware and SessionGuard.
  { name: "fastify-stack", file: "servers/fastify-stack.mjs", ...STACK },
  {
    name: "strata-classic-stack",
    file: "dist/cjs/strata-session.js",
    env: { STRATA_VARIANT: "middleware" },
    ...STACK,
  },
  { name: "strata-effect", file: "dist/cjs/strata-effect.js" },
  // The same app, also loaded on a route that reads its service per request.
  { name: "strata-effect-tag", file: "dist/cjs/strata-effect.js", extraRoutes: [USERS_TAG] },
  // The Strata servers above are compiled to CommonJS (dist/cjs), so `effect-strata` resolves to
  // its CommonJS build; these two are the same files compiled to ESM (dist/esm), which import its
  // ESM build and load effect and @effect/platform through node's ESM loader.
  { name: "strata-classic-esm", file: "dist/esm/strata-classic.js" },
  { name: "strata-effect-esm", file: "dist/esm/strata-effect.js" },
  // One HttpApi (servers/lib/httpapi-routes.ts) on the stock HttpLayerRouter and
  // @effect/platform-node's server, and served by StrataServer.
  { name: "effect-platform-httpapi", file: "dist/esm/effect-platform-httpapi.js" },
  // The stock server with its per-request span off (`TRACER=off`), as a performance-minded user runs it.
  {
    name: "effect-platform-httpapi-notracer",
    file: "dist/esm/effect-platform-httpapi.js",
    env: { TRACER: "off" },
    cpu: true,
  },
  { name: "strata-httpapi", file: "dist/cjs/strata-httpapi.js" },
  // strata-classic on node:cluster workers (servers/strata-workers.ts), 1 then 2: server and
  // load generator share both cores (`cpus`), so these two rows compare with each other only.
  ...[1, 2].map((n) => ({
    name: `strata-classic-workers-${n}`,
    file: "dist/cjs/strata-workers.js",
    env: { WORKERS: String(n) },
    cpus: "0,1",
    readyOutput: `${n} workers listening`,
    startupTimeoutMs: 90_000,
  })),
];
/** The rows compared in the "2 workers ÷ 1 worker" line of the report. */
const WORKER_ROWS = ["strata-classic-workers-1", "strata-classic-workers-2"];

// ---------------------------------------------------------------- options

function parseArgs(argv) {
  const opts = {
    duration: Number(process.env.BENCH_DURATION ?? 10),
    rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    warmup: Number(process.env.BENCH_WARMUP ?? 3),
    cpuRounds: Number(process.env.BENCH_CPU_ROUNDS ?? 3),
    only: process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(",") : undefined,
    out: join(HERE, "RESULTS.md"),
    connections: 50,
    startupTimeoutMs: 30_000,
    baseline: undefined,
    generators: 1,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes("=")
      ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
      : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) die(`missing value for ${flag}`);
      return v;
    };
    switch (flag) {
      case "--duration":
        opts.duration = Number(value());
        break;
      case "--rounds":
        opts.rounds = Number(value());
        break;
      case "--warmup":
        opts.warmup = Number(value());
        break;
      case "--cpu-rounds":
        opts.cpuRounds = Number(value());
        break;
      case "--only":
        opts.only = value()
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case "--out":
        opts.out = value();
        break;
      case "--baseline":
        opts.baseline = value();
        break;
      case "--generators":
        opts.generators = Number(value());
        if (!Number.isInteger(opts.generators) || opts.generators < 1) die("bad --generators");
        break;
      case "-h":
      case "--help":
        console.log(
          "usage: node run.mjs [--duration <s>=10] [--rounds <n>=3] [--warmup <s>=3] [--cpu-rounds <n>=3, 0: none] [--only name,name] [--out RESULTS.md]\n" +
            "                   [--baseline <git rev>: Strata rows again on that rev's build, interleaved] [--generators <n>=1: autocannon processes]\n" +
            `servers: ${SERVERS.map((s) => s.name).join(", ")}`,
        );
        process.exit(0);
        break;
      default:
        die(`unknown argument ${a} (try --help)`);
    }
  }
  for (const k of ["duration", "rounds", "warmup", "cpuRounds"]) {
    if (
      !Number.isFinite(opts[k]) ||
      opts[k] < 0 ||
      ((k === "duration" || k === "rounds") && opts[k] <= 0)
    )
      die(`bad --${k.replace("cpuRounds", "cpu-rounds")}`);
  }
  opts.rounds = Math.floor(opts.rounds);
  opts.cpuRounds = Math.floor(opts.cpuRounds);
  if (opts.only) {
    const unknown = opts.only.filter((n) => !SERVERS.some((s) => s.name === n));
    if (unknown.length)
      die(
        `unknown server(s): ${unknown.join(", ")}; known: ${SERVERS.map((s) => s.name).join(", ")}`,
      );
  }
  return opts;
}

function die(msg) {
  console.error(`bench: ${msg}`);
  process.exit(2);
}

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

// ---------------------------------------------------------------- child process hygiene

const children = new Set();

function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

function killAll(signal = "SIGKILL") {
  for (const c of children) {
    try {
      c.kill(signal);
    } catch {}
  }
}

process.on("exit", () => killAll("SIGKILL"));
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    log(`${sig}: stopping ${children.size} child process(es)`);
    killAll("SIGKILL");
    process.exit(130);
  });
}

async function stop(child, graceMs = 2000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const t = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(t);
}

// ---------------------------------------------------------------- helpers

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, HOST, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function get(port, path, timeoutMs = 2000, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: HOST, port, path, headers, agent: false, timeout: timeoutMs },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
  });
}

/** `pid` and its descendants (a cluster primary's workers). */
function processTree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      const children = readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, "utf8");
      pids.push(...children.split(" ").filter(Boolean).map(Number));
    } catch {}
  }
  return pids;
}

// Memory of the server's processes, summed (one process but for the cluster rows).
function procStatus(pid) {
  let rss = 0;
  let hwm = 0;
  for (const one of processTree(pid)) {
    try {
      const txt = readFileSync(`/proc/${one}/status`, "utf8");
      const kb = (field) => {
        const m = txt.match(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m"));
        return m ? Number(m[1]) / 1024 : Number.NaN;
      };
      rss += kb("VmRSS");
      hwm += kb("VmHWM");
    } catch {
      return { rss: Number.NaN, hwm: Number.NaN };
    }
  }
  return { rss, hwm };
}

// The most telling line of a crashed server's output (e.g. "Error: ..."), for the table.
function reason(output) {
  const lines = (output ?? "").split("\n").map((l) => l.trim());
  const line =
    lines.find((l) => /^(\w*Error|Error)\b|^\[?\w*Error\]?:/.test(l)) ??
    lines.filter(Boolean).at(-1) ??
    "";
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

function tail(buf, max = 1500) {
  const s = buf.trim();
  return s.length > max ? `…${s.slice(-max)}` : s;
}

// CPU accounting, in clock ticks, to tell whether a measurement was clean: the server is
// pinned to core 0 so whatever else core 0 did meanwhile is interference; core 1 is the
// load generator's, and a busy core 1 with a less than busy server means autocannon was
// the bottleneck. (irq/softirq time is left out: loopback traffic lands there.)
function cpuSnapshot(pid) {
  const snap = { cores: {}, server: Number.NaN, at: performance.now() };
  try {
    for (const line of readFileSync("/proc/stat", "utf8").split("\n")) {
      const m = line.match(/^cpu(\d+)\s+(.*)$/);
      if (!m) continue;
      const [user, nice, system, idle, iowait, _irq, _softirq, steal] = m[2]
        .split(/\s+/)
        .map(Number);
      snap.cores[m[1]] = {
        busy: user + nice + system + steal,
        total: user + nice + system + idle + iowait + steal,
      };
    }
    snap.server = 0;
    for (const one of processTree(pid)) {
      const stat = readFileSync(`/proc/${one}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      snap.server += Number(fields[11]) + Number(fields[12]); // utime + stime
    }
  } catch {}
  return snap;
}

// Before each server, wait (bounded) until the machine is idle: another process's build or
// test run would otherwise land in the numbers.
async function waitForQuiet(maxMs = 30_000, thresholdPct = 10) {
  const deadline = performance.now() + maxMs;
  let warned = false;
  for (;;) {
    const a = cpuSnapshot(process.pid);
    await sleep(500);
    const b = cpuSnapshot(process.pid);
    let busy = 0;
    let total = 0;
    for (const k of Object.keys(b.cores)) {
      busy += b.cores[k].busy - (a.cores[k]?.busy ?? b.cores[k].busy);
      total += b.cores[k].total - (a.cores[k]?.total ?? b.cores[k].total);
    }
    const pct = total > 0 ? (100 * busy) / total : 0;
    if (pct < thresholdPct) return;
    if (performance.now() > deadline) {
      log(`  machine still ${pct.toFixed(0)}% busy after ${maxMs / 1000} s; measuring anyway`);
      return;
    }
    if (!warned)
      log(`  machine ${pct.toFixed(0)}% busy with other work; waiting up to ${maxMs / 1000} s`);
    warned = true;
  }
}

function cpuUsage(a, b, seconds) {
  const pct = (x, y) => (y > 0 ? (100 * x) / y : Number.NaN);
  const d = (core, k) => (b.cores[core]?.[k] ?? Number.NaN) - (a.cores[core]?.[k] ?? Number.NaN);
  const server = b.server - a.server;
  const ticks = (b.at - a.at) / 10; // USER_HZ is 100 on Linux
  return {
    serverTicks: server,
    serverCpu: pct(server, seconds * 100), // over the measured seconds only
    othersCore0: Math.max(0, pct(d("0", "busy") - server, d("0", "total") || ticks)),
    core1: pct(d("1", "busy"), d("1", "total") || ticks),
  };
}

const median = (xs) => {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return Number.NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

// ---------------------------------------------------------------- one server, one round

async function startServer(server, opts) {
  const file = resolvePath(HERE, server.file);
  if (!existsSync(file))
    return { error: `not built: ${server.file} missing (run \`npm run build\` in bench/)` };
  const port = await freePort();
  let output = "";
  const t0 = performance.now();
  const child = track(
    spawn("taskset", ["-c", server.cpus ?? "0", process.execPath, file], {
      cwd: HERE,
      env: { ...process.env, ...server.env, PORT: String(port), NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  const collect = (d) => {
    output += d;
    if (output.length > 20_000) output = output.slice(-10_000);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  let exited = false;
  child.once("exit", () => (exited = true));
  child.once("error", (e) => {
    exited = true;
    output += `\nspawn error: ${e.message}`;
  });

  const startupTimeoutMs = server.startupTimeoutMs ?? opts.startupTimeoutMs;
  const deadline = t0 + startupTimeoutMs;
  while (performance.now() < deadline && !exited) {
    try {
      const r = await get(port, "/hello", 1000);
      if (
        r.status === 200 &&
        (server.readyOutput === undefined || output.includes(server.readyOutput))
      ) {
        const startupMs = performance.now() - t0;
        return { child, port, startupMs, output: () => output };
      }
    } catch {}
    await sleep(5);
  }
  await sleep(50); // let the last output arrive
  const why = exited
    ? `exited with ${child.exitCode ?? child.signalCode}`
    : `not ready (200 on /hello${server.readyOutput === undefined ? "" : `, "${server.readyOutput}"`}) within ${startupTimeoutMs} ms`;
  await stop(child);
  const r = reason(output);
  return { error: `failed to start (${why})${r ? `: ${r}` : ""}`, output: tail(output) };
}

// The headers each route is requested with: the server's own (`headers`: the stack rows'
// `Origin`), and the session cookie its `login` path sets, if any.
async function routeHeaders(port, server) {
  const common = server.headers ?? {};
  const headers = {};
  for (const route of [...ROUTES, ...(server.extraRoutes ?? [])]) {
    headers[route.key] = common;
    if (route.login === undefined) continue;
    const r = await get(port, route.login, 2000, common);
    const cookie = (r.headers["set-cookie"] ?? [])[0]?.split(";")[0];
    if (r.status !== 200 || cookie === undefined)
      throw new Error(
        `GET ${route.login} -> ${r.status}, no session cookie: ${r.body.slice(0, 200)}`,
      );
    headers[route.key] = { ...common, cookie };
  }
  return headers;
}

async function checkServer(port, server, headersOf = {}) {
  const problems = [];
  const expectJson = async (path, status, expected, headers = {}) => {
    try {
      const r = await get(port, path, 2000, headers);
      if (r.status !== status) {
        problems.push(`GET ${path} -> ${r.status} (expected ${status}): ${r.body.slice(0, 200)}`);
        return;
      }
      const missing = (server.expectHeaders ?? []).filter((h) => r.headers[h] === undefined);
      if (missing.length) problems.push(`GET ${path} -> no ${missing.join(", ")}`);
      let parsed;
      try {
        parsed = JSON.parse(r.body);
      } catch {
        problems.push(`GET ${path} -> non-JSON body: ${r.body.slice(0, 200)}`);
        return;
      }
      if (expected !== undefined && JSON.stringify(parsed) !== JSON.stringify(expected)) {
        problems.push(
          `GET ${path} -> ${r.body.slice(0, 200)} (expected ${JSON.stringify(expected)})`,
        );
      }
    } catch (e) {
      problems.push(`GET ${path} -> ${e.message}`);
    }
  };
  await expectJson("/hello", 200, { hello: "world" }, headersOf.hello);
  await expectJson("/users/42", 200, { id: 42, name: "user 42" }, headersOf.users);
  await expectJson("/users/abc", 400, undefined, headersOf.users);
  for (const route of server.extraRoutes ?? []) {
    const headers = headersOf[route.key] ?? {};
    if (route.expect.json !== undefined) {
      await expectJson(route.path, route.expect.status, route.expect.json, headers);
    } else {
      try {
        const r = await get(port, route.path, 2000, headers);
        if (r.status !== route.expect.status)
          problems.push(`GET ${route.path} -> ${r.status} (expected ${route.expect.status})`);
      } catch (e) {
        problems.push(`GET ${route.path} -> ${e.message}`);
      }
    }
    if (route.rejects !== undefined) await expectJson(route.rejects, 400, undefined, headers);
  }
  return problems;
}

const AUTOCANNON = join(HERE, "node_modules", "autocannon", "autocannon.js");

// `--generators <n>`: n autocannon processes share the connections; their counts are summed
// (p99: the worst of them).
async function autocannon(port, path, seconds, opts, headers = {}, cpus = "1") {
  const n = opts.generators;
  if (n === 1) return autocannonProcess(port, path, seconds, opts, headers, cpus);
  const share = { ...opts, connections: Math.ceil(opts.connections / n) };
  const all = await Promise.all(
    Array.from({ length: n }, () => autocannonProcess(port, path, seconds, share, headers, cpus)),
  );
  const sum = (k) => all.reduce((a, r) => a + r[k], 0);
  return {
    rps: sum("rps"),
    p99: Math.max(...all.map((r) => r.p99)),
    total: sum("total"),
    non2xx: sum("non2xx"),
    errors: sum("errors"),
  };
}

function autocannonProcess(port, path, seconds, opts, headers, cpus) {
  return new Promise((resolve, reject) => {
    const args = ["-c", cpus, process.execPath, AUTOCANNON, "--json", "-n"];
    for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}=${value}`);
    args.push(
      "-c",
      String(opts.connections),
      "-p",
      "1",
      "-d",
      String(seconds),
      `http://${HOST}:${port}${path}`,
    );
    const child = track(spawn("taskset", args, { cwd: HERE, stdio: ["ignore", "pipe", "pipe"] }));
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const killer = setTimeout(() => child.kill("SIGKILL"), (seconds + 30) * 1000);
    child.once("error", (e) => {
      clearTimeout(killer);
      reject(e);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(killer);
      if (code !== 0)
        return reject(new Error(`autocannon exited ${code ?? signal}: ${tail(err, 500)}`));
      try {
        const j = JSON.parse(out);
        resolve({
          rps: j.requests.average,
          p99: j.latency.p99,
          total: j.requests.total,
          non2xx: j.non2xx ?? 0,
          errors: (j.errors ?? 0) + (j.timeouts ?? 0),
        });
      } catch (e) {
        reject(new Error(`cannot parse autocannon output: ${e.message}: ${tail(out, 300)}`));
      }
    });
  });
}

// A Redis of the run's own for a row that needs one, pinned to the load generator's core (as a
// Redis on another machine would be: it takes nothing from the server's core): started with
// `redis-server` when it is on PATH and REDIS_PORT is not set, on a free port, no persistence.
// Otherwise the row uses the Redis at 127.0.0.1:REDIS_PORT (default 6379).
async function startRedis() {
  if (process.env.REDIS_PORT || spawnSync("redis-server", ["--version"]).status !== 0)
    return { env: {}, stop: async () => {} };
  const port = await freePort();
  const child = track(
    spawn(
      "taskset",
      ["-c", "1", "redis-server", "--port", String(port), "--bind", "127.0.0.1"].concat([
        "--save",
        "",
        "--appendonly",
        "no",
      ]),
      { stdio: "ignore" },
    ),
  );
  const deadline = performance.now() + 5000;
  while (performance.now() < deadline) {
    const ready = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ready) break;
    await sleep(20);
  }
  return { env: { REDIS_PORT: String(port) }, stop: () => stop(child) };
}

async function benchServer(server, opts) {
  await waitForQuiet();
  const redis = server.redis ? await startRedis() : undefined;
  try {
    return await benchStarted(
      redis ? { ...server, env: { ...server.env, ...redis.env } } : server,
      opts,
    );
  } finally {
    await redis?.stop();
  }
}

async function benchStarted(server, opts) {
  const started = await startServer(server, opts);
  if (started.error) return { error: started.error, detail: started.output };
  const { child, port, startupMs } = started;
  try {
    await sleep(1000); // settle before the idle sample
    const idle = procStatus(child.pid);
    let headersOf;
    try {
      headersOf = await routeHeaders(port, server);
    } catch (e) {
      return { error: `sign-in failed: ${e.message.slice(0, 160)}`, startupMs };
    }
    const problems = await checkServer(port, server, headersOf);
    if (problems.length)
      return {
        error: `correctness check failed: ${problems[0].slice(0, 160)}`,
        detail: problems.join("\n"),
        startupMs,
      };
    const routes = {};
    for (const route of [...ROUTES, ...(server.extraRoutes ?? [])]) {
      const headers = headersOf[route.key] ?? {};
      // Pinned apart, or (servers given both cores) sharing every core with the server.
      const cpus = server.cpus ?? "1";
      if (opts.warmup > 0) await autocannon(port, route.path, opts.warmup, opts, headers, cpus);
      const before = cpuSnapshot(child.pid);
      const result = await autocannon(port, route.path, opts.duration, opts, headers, cpus);
      const usage = cpuUsage(before, cpuSnapshot(child.pid), opts.duration);
      // Server CPU time per request (ticks of 10 ms, over thousands of requests): what the
      // server spent, whether or not it was saturated.
      const cpuUs = (usage.serverTicks * 10_000) / result.total;
      // Only for a server pinned apart from autocannon: sharing its cores, core 1 says nothing.
      const generatorBound = server.cpus === undefined && usage.core1 >= 90 && usage.serverCpu < 90;
      routes[route.key] = { ...result, ...usage, cpuUs, generatorBound };
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error("server died under load");
    }
    const after = procStatus(child.pid);
    return { startupMs, rssIdle: idle.rss, rssAfter: after.rss, rssPeak: after.hwm, routes };
  } catch (e) {
    return { error: `run failed: ${e.message}`, detail: tail(started.output()) };
  } finally {
    await stop(child);
  }
}

// ---------------------------------------------------------------- environment

function readVersion(dir, pkg) {
  try {
    return JSON.parse(readFileSync(join(dir, "node_modules", pkg, "package.json"), "utf8")).version;
  } catch {
    return "n/a";
  }
}

function loadAvg() {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "n/a";
  }
}

function machineInfo() {
  let cpu = os.cpus()[0]?.model ?? "unknown";
  try {
    const m = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.+)$/m);
    if (m) cpu = m[1].trim();
  } catch {}
  let memGiB = os.totalmem() / 2 ** 30;
  try {
    const m = readFileSync("/proc/meminfo", "utf8").match(/^MemTotal:\s+(\d+)\s+kB/m);
    if (m) memGiB = Number(m[1]) / 2 ** 20;
  } catch {}
  const nproc = spawnSync("nproc", [], { encoding: "utf8" }).stdout?.trim();
  return {
    cpu,
    cores: os.cpus().length,
    nproc: nproc || String(os.cpus().length),
    memGiB,
    kernel: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

function versions() {
  const bench = (p) => readVersion(HERE, p);
  const root = (p) => readVersion(ROOT, p);
  let strata = "n/a";
  try {
    strata = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
  } catch {}
  const rev = spawnSync("git", ["-C", ROOT, "rev-parse", "--short", "HEAD"], { encoding: "utf8" });
  const dirty = spawnSync("git", ["-C", ROOT, "status", "--porcelain", "--", "src"], {
    encoding: "utf8",
  });
  const commit =
    rev.status === 0
      ? `${rev.stdout.trim()}${dirty.stdout?.trim() ? " (+ uncommitted changes in src/)" : ""}`
      : "no commit";
  const distPath = join(ROOT, "dist", "src", "index.js");
  return [
    ["node", process.version],
    ["fastify", bench("fastify")],
    ...["@fastify/cors", "@fastify/helmet", "@fastify/rate-limit", "@fastify/secure-session"].map(
      (name) => [name, bench(name)],
    ),
    ["express", bench("express")],
    ["@nestjs/core", bench("@nestjs/core")],
    ["@nestjs/common", bench("@nestjs/common")],
    ["@nestjs/platform-express", bench("@nestjs/platform-express")],
    ["@nestjs/platform-fastify", bench("@nestjs/platform-fastify")],
    ["effect (bench)", bench("effect")],
    ["@effect/platform (bench)", bench("@effect/platform")],
    ["@effect/platform-node (bench)", bench("@effect/platform-node")],
    [
      "effect-strata",
      `${strata}, ${commit}, dist ${existsSync(distPath) ? relative(HERE, distPath) : "not built"}`,
    ],
    ["effect (strata's, root node_modules)", root("effect")],
    ["@effect/platform (strata's)", root("@effect/platform")],
    ["@effect/platform-node (strata's)", root("@effect/platform-node")],
    ["autocannon", bench("autocannon")],
    ["typescript (bench build)", bench("typescript")],
  ];
}

// ---------------------------------------------------------------- report

const fmtInt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "–");
const fmtNum = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "–");
const fmtRatio = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : "–");

function stats(values) {
  const v = values.filter(Number.isFinite);
  return { median: median(v), min: Math.min(...v), max: Math.max(...v), n: v.length };
}

function fmtRps(s) {
  if (!s.n) return "–";
  if (s.n === 1) return fmtInt(s.median);
  return `${fmtInt(s.median)} (${fmtInt(s.min)}–${fmtInt(s.max)})`;
}

function summarize(results, selected) {
  const rows = [];
  const baseline = {};
  const routeStats = (runs, key) => ({
    rps: stats(runs.map((r) => r.routes[key]?.rps)),
    p99: stats(runs.map((r) => r.routes[key]?.p99)),
    bad: runs.reduce((a, r) => a + (r.routes[key]?.non2xx ?? 0) + (r.routes[key]?.errors ?? 0), 0),
    serverCpu: stats(runs.map((r) => r.routes[key]?.serverCpu)),
    othersMax: Math.max(...runs.map((r) => r.routes[key]?.othersCore0 ?? 0)),
    cpuUs: stats(runs.map((r) => r.routes[key]?.cpuUs)),
    // Rounds where the load generator, not the server, was the limit: core 1 (autocannon's)
    // ≥ 90% busy while the server, alone on core 0, was below 90%. Their req/s say more about
    // autocannon than about the server; their CPU µs/request still hold.
    generatorBound: runs.filter((r) => r.routes[key]?.generatorBound === true).length,
  });
  for (const s of selected) {
    const runs = results.get(s.name).filter((r) => !r.error);
    if (!runs.length) continue;
    const hello = routeStats(runs, "hello");
    const users = routeStats(runs, "users");
    if (s.name === BASELINE) {
      baseline.hello = hello.rps.median;
      baseline.users = users.rps.median;
      baseline.helloCpuUs = hello.cpuUs.median;
      baseline.usersCpuUs = users.cpuUs.median;
    }
  }
  for (const s of selected) {
    const all = results.get(s.name);
    const runs = all.filter((r) => !r.error);
    const failures = all.filter((r) => r.error);
    if (!runs.length) {
      rows.push({ name: s.name, failed: failures[0] });
      continue;
    }
    const hello = routeStats(runs, "hello");
    const users = routeStats(runs, "users");
    const row = {
      name: s.name,
      hello,
      users,
      helloRatio: hello.rps.median / baseline.hello,
      usersRatio: users.rps.median / baseline.users,
      helloCpuRatio: hello.cpuUs.median / baseline.helloCpuUs,
      usersCpuRatio: users.cpuUs.median / baseline.usersCpuUs,
      startup: stats(runs.map((r) => r.startupMs)),
      rssIdle: stats(runs.map((r) => r.rssIdle)),
      rssAfter: stats(runs.map((r) => r.rssAfter)),
      rssPeak: stats(runs.map((r) => r.rssPeak)),
      roundsOk: runs.length,
      roundsFailed: failures.length,
      firstFailure: failures[0],
    };
    rows.push(row);
    for (const route of s.extraRoutes ?? []) {
      const extra = routeStats(runs, route.key);
      // A redirect route answers 3xx by design: only transport errors count as bad there.
      if (route.expect.status !== 200)
        extra.bad = runs.reduce((a, r) => a + (r.routes[route.key]?.errors ?? 0), 0);
      const own = route.compareTo === "hello" ? hello : users;
      rows.push({
        name: `↳ ${s.name} ${route.label}`,
        extra: true,
        users: extra,
        usersRatio: extra.rps.median / baseline[route.compareTo],
        vsOwn: extra.rps.median / own.rps.median,
        compareTo: route.compareTo === "hello" ? "`/hello`" : "`/users/:id`",
      });
    }
  }
  return rows;
}

/** Server CPU µs/request on both routes, with their ratios to node-http's. */
function cpuUsCell(r) {
  const one = (s, ratio) => `${fmtNum(s.median, 1)} (${fmtRatio(ratio)})`;
  const bound = r.hello.generatorBound + r.users.generatorBound;
  return `${one(r.hello.cpuUs, r.helloCpuRatio)} · ${one(r.users.cpuUs, r.usersCpuRatio)}${bound ? ` ⚠ generator-bound in ${bound} measurement(s)` : ""}`;
}

function cpuCell(r) {
  const server = Math.min(r.hello.serverCpu.median, r.users.serverCpu.median);
  const others = Math.max(r.hello.othersMax, r.users.othersMax);
  return `${fmtNum(server, 0)} · ${fmtNum(others, 0)}${others > 5 ? " ⚠" : ""}`;
}

function renderTable(rows) {
  const head = [
    "server",
    "/hello req/s (median, min–max)",
    "ratio",
    "/users/:id req/s (median, min–max)",
    "ratio",
    "p99 ms /hello · /users",
    "startup ms",
    "RSS MB idle / after load / peak",
    "CPU % server · max others on core 0",
    "server CPU µs/request /hello · /users/:id (× node-http)",
  ];
  const lines = [
    `| ${head.join(" | ")} |`,
    `|${head.map((_, i) => (i === 0 ? " --- " : " ---: ")).join("|")}|`,
  ];
  const warn = (r) => (r.bad > 0 ? ` ⚠ ${fmtInt(r.bad)} non-2xx/errors` : "");
  for (const r of rows) {
    if (r.failed) {
      lines.push(
        `| ${r.name} | ${r.failed.error.replace(/\|/g, "\\|").replace(/\s+/g, " ")} | | | | | | | | |`,
      );
      continue;
    }
    if (r.extra) {
      lines.push(
        `| ${r.name} | | | ${fmtRps(r.users.rps)}${warn(r.users)} | ${fmtRatio(r.usersRatio)} (${fmtRatio(r.vsOwn)} of its ${r.compareTo}) | – · ${fmtNum(r.users.p99.median, 0)} | | | ${fmtNum(r.users.serverCpu.median, 0)} · ${fmtNum(r.users.othersMax, 0)} | – · ${fmtNum(r.users.cpuUs.median, 1)} |`,
      );
      continue;
    }
    const partial = r.roundsFailed ? ` (${r.roundsFailed} round(s) failed)` : "";
    lines.push(
      [
        "",
        ` ${r.name}${partial} `,
        ` ${fmtRps(r.hello.rps)}${warn(r.hello)} `,
        ` ${fmtRatio(r.helloRatio)} `,
        ` ${fmtRps(r.users.rps)}${warn(r.users)} `,
        ` ${fmtRatio(r.usersRatio)} `,
        ` ${fmtNum(r.hello.p99.median, 0)} · ${fmtNum(r.users.p99.median, 0)} `,
        ` ${fmtInt(r.startup.median)} `,
        ` ${fmtNum(r.rssIdle.median, 0)} / ${fmtNum(r.rssAfter.median, 0)} / ${fmtNum(r.rssPeak.median, 0)} `,
        ` ${cpuCell(r)} `,
        ` ${cpuUsCell(r)} `,
        "",
      ].join("|"),
    );
  }
  return lines.join("\n");
}

// The cluster rows against each other: what a second worker buys when the load generator needs
// a share of the same two cores.
function renderWorkers(rows) {
  const [one, two] = WORKER_ROWS.map((name) => rows.find((r) => r.name === name && !r.failed));
  if (one === undefined || two === undefined) return undefined;
  const ratio = (key) => fmtRatio(two[key].rps.median / one[key].rps.median);
  return (
    `Workers: ${WORKER_ROWS[1]} ÷ ${WORKER_ROWS[0]} = ${ratio("hello")} on \`/hello\`, ` +
    `${ratio("users")} on \`/users/:id\`. Both rows run the primary, its workers and autocannon on ` +
    "both cores (`taskset -c 0,1` all three), so their ratios to the pinned node-http row mean nothing; " +
    "their CPU column is the primary's and the workers' together (200 = both cores), and its `others on core 0` counts autocannon."
  );
}

// `--baseline`: each Strata row of this checkout's build ÷ the same row on the baseline's build.
// Below 1× in CPU µs/request (or above 1× in req/s) the current build is faster.
function renderBuilds(rows, cpuSummary, baselineOf, rev) {
  if (baselineOf.size === 0) return undefined;
  const lines = [
    `Builds: this checkout ÷ ${rev} (same run, interleaved). CPU µs/request under load, req/s, and in-process µs/request:`,
    "",
  ];
  for (const [baselineName, name] of baselineOf) {
    const now = rows.find((r) => r.name === name && !r.failed);
    const then = rows.find((r) => r.name === baselineName && !r.failed);
    const parts = [];
    if (now !== undefined && then !== undefined) {
      for (const key of ["hello", "users"])
        parts.push(
          `${key === "hello" ? "`/hello`" : "`/users/:id`"} CPU ${fmtRatio(now[key].cpuUs.median / then[key].cpuUs.median)}, req/s ${fmtRatio(now[key].rps.median / then[key].rps.median)}`,
        );
    }
    const inNow = cpuSummary?.get(name)?.paths;
    const inThen = cpuSummary?.get(baselineName)?.paths;
    if (inNow !== undefined && inThen !== undefined)
      parts.push(
        `in-process ${CPU_PATHS.map((p) => `\`${p.path}\` ${fmtRatio(inNow[p.path].median / inThen[p.path].median)}`).join(", ")}`,
      );
    lines.push(`- ${name}: ${parts.length ? parts.join("; ") : "not measured (a build failed)"}`);
  }
  return lines.join("\n");
}

// strata-httpapi against the stock HttpApi server, its tracer on (the default) and off (target:
// at least 3x either way).
function renderHttpApi(rows) {
  const strata = rows.find((r) => r.name === "strata-httpapi" && !r.failed);
  if (strata === undefined) return undefined;
  const against = ["effect-platform-httpapi", "effect-platform-httpapi-notracer"]
    .map((name) => rows.find((r) => r.name === name && !r.failed))
    .filter((row) => row !== undefined)
    .map((stock) => {
      const ratio = (key) => fmtRatio(strata[key].rps.median / stock[key].rps.median);
      return `${stock.name}: ${ratio("hello")} on \`/hello\`, ${ratio("users")} on \`/users/:id\``;
    });
  if (against.length === 0) return undefined;
  return `HttpApi: strata-httpapi ÷ ${against.join("; ÷ ")} (target: at least 3× both).`;
}

function renderFailures(selected, results) {
  const out = [];
  for (const s of selected) {
    const seen = new Map(); // identical failures are reported once, with their rounds
    results.get(s.name).forEach((r, i) => {
      if (!r.error) return;
      const key = `${r.error}\n${r.detail ?? ""}`;
      if (!seen.has(key)) seen.set(key, { r, rounds: [] });
      seen.get(key).rounds.push(r.skipped ? `${i + 1} (skipped)` : i + 1);
    });
    for (const { r, rounds } of seen.values()) {
      out.push(`- **${s.name}** (round ${rounds.join(", ")}): ${r.error}`);
      if (r.detail) out.push(`  \`\`\`\n${r.detail.replace(/^/gm, "  ")}\n  \`\`\``);
    }
  }
  return out.join("\n");
}

// ---------------------------------------------------------------- main

async function main() {
  // `--instructions`: the instruction-count mode (instructions.mjs), with the other arguments.
  const argv = process.argv.slice(2);
  if (argv.includes("--instructions")) {
    const rest = argv.filter((a) => a !== "--instructions");
    const child = spawnSync(process.execPath, [join(HERE, "instructions.mjs"), ...rest], {
      stdio: "inherit",
    });
    process.exit(child.status ?? 1);
  }
  const opts = parseArgs(argv);
  if (spawnSync("taskset", ["-c", "0", "true"]).status !== 0)
    die("taskset is required (util-linux)");
  if (!existsSync(AUTOCANNON)) die("autocannon not installed: run `npm install` in bench/");
  if (os.cpus().length < 2)
    log("warning: fewer than 2 CPUs, server and load generator will share a core");

  let selected = SERVERS;
  if (opts.only) {
    const names = new Set(opts.only);
    if (!names.has(BASELINE)) {
      names.add(BASELINE);
      log(`adding ${BASELINE} as the baseline for ratios`);
    }
    selected = SERVERS.filter((s) => names.has(s.name));
  }
  // Servers measured in-process too: those without variants, and rows marked `cpu`.
  selected = selected.map((s) => ({
    ...s,
    cpu: (s.env === undefined || s.cpu === true) && s.extraRoutes === undefined,
  }));
  // `--baseline <rev>`: each Strata row again on that rev's build, right after it in every round.
  let baselineOf = new Map();
  if (opts.baseline !== undefined) {
    ({ rows: selected, baselineOf } = withBaseline(
      selected,
      buildBaseline(ROOT, opts.baseline, log),
      HERE,
    ));
  }

  // Hard bound on the whole run: twice the nominal time plus slack, then everything is killed.
  const perServer = (s) =>
    (1 + (ROUTES.length + (s.extraRoutes?.length ?? 0)) * (opts.warmup + opts.duration + 1)) *
      1000 +
    (s.startupTimeoutMs ?? opts.startupTimeoutMs);
  // The in-process section: the servers without variants (and those marked `cpu`), each probe
  // well under 2 min.
  const cpuServers = selected.filter((s) => s.cpu);
  const budgetMs =
    opts.rounds * selected.reduce((a, s) => a + perServer(s), 0) * 2 +
    opts.cpuRounds * cpuServers.length * 120_000 +
    120_000;
  const watchdog = setTimeout(() => {
    log(`time budget of ${Math.round(budgetMs / 1000)} s exceeded, aborting`);
    killAll("SIGKILL");
    process.exit(3);
  }, budgetMs);
  watchdog.unref();

  const started = new Date();
  const loadBefore = loadAvg();
  if (Number.parseFloat(loadBefore) > 0.5) {
    log(
      `warning: load average is ${loadBefore} before starting; other processes will skew the numbers`,
    );
  }
  log(
    `${selected.length} servers × ${opts.rounds} round(s), warm-up ${opts.warmup} s + ${opts.duration} s per route, ` +
      `${opts.connections} connections (hard limit ${Math.round(budgetMs / 60000)} min)`,
  );

  const results = new Map(selected.map((s) => [s.name, []]));
  for (let round = 1; round <= opts.rounds; round++) {
    for (const s of selected) {
      const previous = results.get(s.name);
      if (previous.length && previous.every((p) => p.error && !p.error.startsWith("run failed"))) {
        // Failing to start or to pass the check is deterministic enough: don't retry every round.
        previous.push({ ...previous[0], skipped: true });
        continue;
      }
      log(`round ${round}/${opts.rounds}: ${s.name}`);
      const r = await benchServer(s, opts);
      previous.push(r);
      if (r.error) log(`  ${s.name}: ${r.error}`);
      else
        log(
          `  startup ${fmtInt(r.startupMs)} ms, ` +
            Object.entries(r.routes)
              .map(
                ([k, v]) =>
                  `${k} ${fmtInt(v.rps)} req/s ${fmtNum(v.cpuUs, 1)} µs/req p99 ${v.p99} ms` +
                  ` [cpu server ${fmtNum(v.serverCpu, 0)}%, others on core 0 ${fmtNum(v.othersCore0, 0)}%, core 1 ${fmtNum(v.core1, 0)}%]` +
                  `${v.non2xx + v.errors ? ` (${v.non2xx + v.errors} bad)` : ""}`,
              )
              .join(", ") +
            `, RSS ${fmtNum(r.rssIdle, 0)}/${fmtNum(r.rssAfter, 0)}/${fmtNum(r.rssPeak, 0)} MB`,
        );
      await sleep(500);
    }
  }

  const rows = summarize(results, selected);
  const table = renderTable(rows);
  const cpuSummary =
    opts.cpuRounds > 0
      ? await measureCpu(cpuServers, {
          here: HERE,
          rounds: opts.cpuRounds,
          track,
          waitForQuiet,
          median,
          log,
        })
      : undefined;
  const cpuTable = cpuSummary === undefined ? undefined : renderCpuTable(cpuSummary, BASELINE);
  const builds = renderBuilds(rows, cpuSummary, baselineOf, opts.baseline);
  const failures = renderFailures(selected, results);
  const workers = renderWorkers(rows);
  const httpApi = renderHttpApi(rows);
  const m = machineInfo();
  const vers = versions();

  const md = [
    "# Strata HTTP benchmark",
    "",
    `Run ${started.toISOString()} — \`node bench/run.mjs --duration ${opts.duration} --rounds ${opts.rounds} --warmup ${opts.warmup}${opts.only ? ` --only ${opts.only.join(",")}` : ""}${opts.baseline ? ` --baseline ${opts.baseline}` : ""}${opts.generators > 1 ? ` --generators ${opts.generators}` : ""}\``,
    "",
    table,
    "",
    `Medians over ${opts.rounds} interleaved round(s), (min–max) across rounds. Ratio = median req/s ÷ \`${BASELINE}\` median on the same route in this run.`,
    `Load: autocannon, ${opts.connections} connections, pipelining 1, ${opts.warmup} s warm-up then ${opts.duration} s measured per route, ` +
      "`taskset -c 1`; each server runs alone as `taskset -c 0 node <file>` with NODE_ENV=production, on 127.0.0.1. " +
      "`/users/:id` is measured with `/users/42`. Startup = spawn until the first 200 on `/hello` (polled every 5 ms). " +
      "The strata-* servers import `effect-strata` by name, compiled to CommonJS (dist/cjs: they `require` Strata's CommonJS build, as NestJS apps, CommonJS by default, do; the nest-* servers load NestJS the same way), " +
      "except the `-esm` rows, the same files compiled to ESM (dist/esm), which import its ESM build. " +
      "RSS idle = VmRSS 1 s after startup; after load = VmRSS after the last route; peak = VmHWM. " +
      "CPU: the server's CPU use during the measured seconds (lower of the two routes, median; ~100 = one core saturated), " +
      "and the most core 0 time taken by other processes in any measurement (⚠ above 5%: that row was disturbed). " +
      "autocannon has one core: a server near 100% with core 1 also near 100% means the load generator is close to its limit too, " +
      "which compresses the differences among the fastest servers. " +
      "Server CPU µs/request = the server's CPU time (user + system, /proc ticks) during the measured seconds ÷ the requests answered: " +
      "steadier than req/s on a shared machine, since it does not depend on how much of its core the server got; " +
      "⚠ generator-bound marks measurements where core 1 (autocannon) was ≥ 90% busy while the server was < 90%: " +
      "there req/s measure the generator (try `--generators 2`), the CPU µs/request still the server.",
    "",
    ...(builds === undefined ? [] : [builds, ""]),
    ...(workers === undefined ? [] : [workers, ""]),
    ...(httpApi === undefined ? [] : [httpApi, ""]),
    failures ? `## Failures\n\n${failures}\n` : "",
    ...(cpuTable === undefined
      ? []
      : [
          "## CPU per request, in-process",
          "",
          cpuTable,
          "",
          `Microseconds of CPU (user + system, garbage collection included) a request costs each server with no sockets: ` +
            "`cpu-probe.mjs` loads the server, takes its node:http `request` listener and hands it requests on in-memory sockets, one at a time, " +
            `pinned to core 0; one checked request per path (status and body), a warm-up round, then 5 rounds of 20,000 requests per path. ` +
            `Median over ${opts.cpuRounds} interleaved spawns of each spawn's median round (min–max across spawns). ` +
            "No parsing, no syscalls and no load generator: what is left is each framework's own work and the node:http response code they all share, " +
            `so \`over ${BASELINE}\` is the framework's cost on that route. \`/users/42 − /hello\` is what the \`/users/:id\` route's own code adds ` +
            `(the Effect servers share theirs: \`Effect.gen\` + \`HttpLayerRouter.params\`). Paths: ${CPU_PATHS.map((p) => `\`${p.path}\``).join(", ")}.`,
          "",
        ]),
    "## Machine",
    "",
    `- CPU: ${m.cpu} — ${m.cores} logical CPUs (nproc ${m.nproc})`,
    `- Memory: ${m.memGiB.toFixed(1)} GiB`,
    `- OS: ${m.kernel}`,
    `- Load average (1/5/15 min) before the run: ${loadBefore}; after: ${loadAvg()} (the runner itself adds ~1)`,
    "",
    "## Versions",
    "",
    ...vers.map(([k, v]) => `- ${k}: ${v}`),
    "",
  ].join("\n");

  console.log(`\n${table}\n`);
  if (builds !== undefined) console.log(`${builds}\n`);
  if (workers !== undefined) console.log(`${workers}\n`);
  if (cpuTable !== undefined) console.log(`CPU per request, in-process:\n\n${cpuTable}\n`);
  if (failures) console.log(`Failures:\n${failures}\n`);
  writeFileSync(opts.out, md);
  log(`wrote ${relative(process.cwd(), opts.out) || opts.out}`);
  clearTimeout(watchdog);
}

main().catch((e) => {
  console.error(e);
  killAll("SIGKILL");
  process.exit(1);
});
