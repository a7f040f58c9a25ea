#!/usr/bin/env node
// Instructions a server executes per request, counted by valgrind: the one figure a shared or
// busy machine does not move. Not part of the test suite.
//
//   node instructions.mjs [--only a,b] [--requests <n>=1000] [--windows <n>=3] [--warmup <n>=3000]
//                         [--paths /hello,/users/42] [--baseline <git rev>] [--profile <n>]
//
// Each server runs under `valgrind --tool=callgrind --instr-atstart=no` (nothing counted while
// it starts). The runner, another process, checks its answers, sends it <warmup> requests per
// path on one keep-alive connection, the paths taking turns (V8 compiles the hot code for all of
// them, as under mixed traffic), then switches counting on and,
// per path and window, zeroes the counters (`callgrind_control -z`), sends <requests> requests
// one after the other on one keep-alive connection, and dumps the counters
// (`callgrind_control -d`): the window's instructions ÷ <requests>, every thread of the server
// (garbage collection and V8's compiler threads included), user space only (the kernel's part
// of each syscall is not counted). No startup to subtract: the counters only cover the window.
// Reported: the median window (min–max), ratios to node-http, and `/users/42 − /hello`.
//
// `--baseline <rev>` adds every Strata row again on that git rev's build (baseline.mjs), run
// right after the current one, with the ratio current ÷ baseline. `--profile <n>` prints, per
// server and path, the <n> functions with the most instructions of their own in the last window
// (JavaScript functions named through node's `--perf-basic-prof` map), then the <n> JavaScript
// functions with the most instructions with their callees (from callgrind's call edges): read
// down that list, it says what each stage of a request costs (the request listener, the fiber's
// start, the route, the response write).
//
// The stack rows (fastify-stack, strata-classic-stack: CORS, security headers, rate limit,
// timeout, session guard; README "The full stack") are sent `Origin: <the allowed origin>` with
// every request, sign in first (`GET /login`) and send its session cookie with the guarded
// `/session-users/42`; their answers must carry the stack's headers. Measure them with
// `--only fastify-stack,strata-classic-stack --paths /hello,/session-users/42`; the other rows
// have no `/session-users/42` (–). The report ends with Strata ÷ fastify per path for each pair
// of rows in the run.

import { execFile, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { dirname, join, resolve as resolvePath } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { buildBaseline, withBaseline } from "./baseline.mjs";
import { NODE_HTTP_ROWS } from "./node-http-rows.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const HOST = "127.0.0.1";
const BASELINE = "node-http";

const SERVERS = [
  ...NODE_HTTP_ROWS,
  { name: "fastify", file: "servers/fastify.mjs" },
  { name: "strata-classic", file: "dist/cjs/strata-classic.js" },
  { name: "strata-effect", file: "dist/cjs/strata-effect.js" },
  { name: "strata-classic-esm", file: "dist/esm/strata-classic.js" },
  { name: "strata-effect-esm", file: "dist/esm/strata-effect.js" },
  // The full stack: fastify's plugins, and Strata's middleware and session guard.
  { name: "fastify-stack", file: "servers/fastify-stack.mjs", stack: true },
  {
    name: "strata-classic-stack",
    file: "dist/cjs/strata-session.js",
    env: { STRATA_VARIANT: "middleware" },
    stack: true,
  },
];
const DEFAULT_ONLY = ["node-http", "node-http-json", "fastify", "strata-classic", "strata-effect"];
const USER_42 = JSON.stringify({ id: 42, name: "user 42" });
const EXPECT = {
  "/hello": { status: 200, body: JSON.stringify({ hello: "world" }) },
  "/users/42": { status: 200, body: USER_42 },
  "/users/abc": { status: 400 },
  // The stack rows only: `/users/:id` behind the session guard, signed in.
  "/session-users/42": { status: 200, body: USER_42, stackOnly: true },
};
// What the stack rows send and must answer (bench/servers/lib/middleware-stack.ts).
const STACK = {
  origin: "https://app.example.com",
  login: "/login",
  guarded: "/session-users/42",
  headers: [
    "access-control-allow-origin",
    "vary",
    "x-content-type-options",
    "x-frame-options",
    "referrer-policy",
    "ratelimit-limit",
    "ratelimit-remaining",
  ],
};
// Strata ÷ fastify, per path, for each pair whose two rows ran.
const PAIRS = [
  ["strata-classic", "fastify"],
  ["strata-classic-stack", "fastify-stack"],
];

const log = (msg) => process.stderr.write(`[instructions] ${msg}\n`);
const die = (msg) => {
  console.error(`instructions: ${msg}`);
  process.exit(2);
};

function parseArgs(argv) {
  const opts = {
    only: DEFAULT_ONLY,
    requests: 1000,
    windows: 3,
    warmup: 3000,
    paths: ["/hello", "/users/42"],
    baseline: undefined,
    profile: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => argv[++i] ?? die(`missing value for ${flag}`);
    const list = () =>
      value()
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    if (flag === "--only") opts.only = list();
    else if (flag === "--paths") opts.paths = list();
    else if (flag === "--baseline") opts.baseline = value();
    else if (["--requests", "--windows", "--warmup", "--profile"].includes(flag)) {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0) die(`bad ${flag}`);
      opts[flag.slice(2)] = n;
    } else if (flag === "-h" || flag === "--help") {
      console.log(
        "usage: node instructions.mjs [--only a,b] [--requests 1000] [--windows 3] [--warmup 3000] " +
          "[--paths /hello,/users/42] [--baseline <git rev>] [--profile <n>]\n" +
          `servers: ${SERVERS.map((s) => s.name).join(", ")}`,
      );
      process.exit(0);
    } else die(`unknown argument ${flag} (try --help)`);
  }
  if (opts.requests < 1 || opts.windows < 1) die("--requests and --windows: at least 1");
  const unknown = opts.only.filter((n) => !SERVERS.some((s) => s.name === n));
  if (unknown.length) die(`unknown server(s): ${unknown.join(", ")}`);
  const unknownPaths = opts.paths.filter((p) => EXPECT[p] === undefined);
  if (unknownPaths.length)
    die(`unknown path(s): ${unknownPaths.join(", ")}; known: ${Object.keys(EXPECT).join(", ")}`);
  return opts;
}

// ---------------------------------------------------------------- processes

const children = new Set();
process.on("exit", () => {
  for (const c of children) c.kill("SIGKILL");
});
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    for (const c of children) c.kill("SIGKILL");
    process.exit(130);
  });

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, HOST, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** `callgrind_control <args> <pid>`; rejects when it fails. */
const control = (pid, ...args) =>
  new Promise((resolve, reject) =>
    execFile("callgrind_control", [...args, String(pid)], { timeout: 120_000 }, (err, out) =>
      err ? reject(new Error(`callgrind_control ${args.join(" ")}: ${err.message}`)) : resolve(out),
    ),
  );

/** One keep-alive connection, requests one after the other; `headersOf(path)`: what each sends. */
const client = (port, headersOf = () => ({})) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path) =>
    new Promise((resolve, reject) => {
      http
        .get(
          { host: HOST, port, path, agent, headers: headersOf(path), timeout: 120_000 },
          (res) => {
            let body = "";
            res.setEncoding("utf8");
            res.on("data", (d) => (body += d));
            res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body }));
          },
        )
        .on("timeout", function () {
          this.destroy(new Error("timeout"));
        })
        .on("error", reject);
    });
  const run = async (path, n) => {
    for (let i = 0; i < n; i++) {
      const r = await get(path);
      if (r.status !== EXPECT[path].status) throw new Error(`${path} -> ${r.status}`);
    }
  };
  return { get, run, close: () => agent.destroy() };
};

/**
 * The `summary:` total of a callgrind dump, and (when `top` > 0) its costliest functions: by
 * instructions of their own, and the JavaScript ones by inclusive instructions (their own and
 * their callees', from callgrind's call edges; a call between two parts of one function is not
 * counted twice, a recursive cycle through other functions may be).
 */
function readDump(file, top, perfMap) {
  const text = readFileSync(file, "utf8");
  const total = Number(/^summary:\s+(\d+)/m.exec(text)?.[1] ?? /^totals:\s+(\d+)/m.exec(text)[1]);
  if (top === 0) return { total };
  // Unnamed code (V8's JIT) is named `0x<address>`: give it the JavaScript function it lies in.
  const named = (name) => {
    const at = /^0x([0-9a-f]+)$/.exec(name);
    return (at ? jsName(perfMap, Number.parseInt(at[1], 16)) : undefined) ?? name;
  };
  // Cost lines after `fn=` are the function's own, except the line after a `cfn=`/`calls=`
  // pair: the inclusive cost of that call.
  const names = new Map();
  const self = new Map();
  const inclusive = new Map();
  const add = (map, key, cost) => map.set(key, (map.get(key) ?? 0) + cost);
  let fn;
  let callee;
  let inCall = false;
  for (const line of text.split("\n")) {
    const fnLine = /^(c?)fn=\((\d+)\)(?: (.*))?$/.exec(line);
    if (fnLine) {
      if (fnLine[3] !== undefined) names.set(fnLine[2], named(fnLine[3]));
      if (fnLine[1] === "") fn = names.get(fnLine[2]);
      else callee = names.get(fnLine[2]);
      continue;
    }
    if (line.startsWith("calls=")) {
      inCall = true;
      continue;
    }
    if (fn !== undefined && /^[+-]?\d|^\*/.test(line)) {
      const cost = Number(line.trim().split(/\s+/)[1] ?? 0);
      if (inCall) {
        inCall = false;
        if (callee !== fn) add(inclusive, fn, cost);
        continue;
      }
      add(self, fn, cost);
      add(inclusive, fn, cost);
    }
  }
  const costliest = (map, keep) =>
    [...map]
      .filter(([name]) => keep(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, cost]) => ({ name, cost }));
  return {
    total,
    functions: costliest(self, () => true),
    inclusive: costliest(inclusive, (name) => name.startsWith("JS ")),
  };
}

/** node's `--perf-basic-prof` map of `pid`: sorted `[start, end, name]`. */
const readPerfMap = (pid) => {
  const file = `/tmp/perf-${pid}.map`;
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [start, size, ...name] = line.split(" ");
      const s = Number.parseInt(start, 16);
      return [s, s + Number.parseInt(size, 16), name.join(" ")];
    })
    .sort((a, b) => a[0] - b[0]);
};

const jsName = (map, address) => {
  let lo = 0;
  let hi = map.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (map[mid][0] <= address) lo = mid + 1;
    else hi = mid - 1;
  }
  const hit = map[hi];
  return hit !== undefined && address < hit[1] ? `JS ${hit[2]}` : undefined;
};

// ---------------------------------------------------------------- one server

async function measure(server, opts, outDir) {
  const file = resolvePath(HERE, server.file);
  if (!existsSync(file)) return { error: `not built: ${server.file}` };
  const port = await freePort();
  // `--perf-basic-prof` also writes V8's log: kept in the run's temp folder.
  const nodeArgs =
    opts.profile > 0
      ? ["--perf-basic-prof", "--no-logfile-per-isolate", `--logfile=${join(outDir, "v8.log")}`]
      : [];
  const child = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      "--instr-atstart=no",
      `--callgrind-out-file=${join(outDir, "cg.%p")}`,
      process.execPath,
      ...nodeArgs,
      file,
    ],
    {
      cwd: HERE,
      env: { ...process.env, ...server.env, PORT: String(port), NODE_ENV: "production" },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  children.add(child);
  let output = "";
  child.stderr.on("data", (d) => {
    output = (output + d).slice(-4000);
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
    children.delete(child);
  });
  // Stack rows: the allowed `Origin` on every request, the session cookie on the guarded path.
  let cookie;
  const headersOf = server.stack
    ? (path) =>
        path === STACK.guarded && cookie
          ? { origin: STACK.origin, cookie }
          : { origin: STACK.origin }
    : undefined;
  const { get, run, close } = client(port, headersOf);
  const paths = opts.paths.filter((p) => server.stack || !EXPECT[p].stackOnly);
  try {
    const deadline = Date.now() + 600_000; // a valgrind start is slow, more so on a busy machine
    for (;;) {
      if (exited) return { error: `exited while starting: ${output.trim().slice(-300)}` };
      if (Date.now() > deadline) return { error: "not answering /hello after 600 s" };
      try {
        if ((await get("/hello")).status === 200) break;
      } catch {}
      await sleep(500);
    }
    if (server.stack) {
      const r = await get(STACK.login);
      cookie = (r.headers["set-cookie"] ?? [])[0]?.split(";")[0];
      if (r.status !== 200 || cookie === undefined)
        return { error: `GET ${STACK.login} -> ${r.status}, no session cookie` };
    }
    for (const path of Object.keys(EXPECT)) {
      const want = EXPECT[path];
      if (want.stackOnly && !server.stack) continue;
      const r = await get(path);
      if (r.status !== want.status || (want.body !== undefined && r.body !== want.body))
        return { error: `GET ${path} -> ${r.status} ${r.body.slice(0, 120)}` };
      const missing = server.stack ? STACK.headers.filter((h) => r.headers[h] === undefined) : [];
      if (missing.length) return { error: `GET ${path}: no ${missing.join(", ")}` };
      if (server.stack && r.headers["access-control-allow-origin"] !== STACK.origin)
        return { error: `GET ${path}: Access-Control-Allow-Origin is not ${STACK.origin}` };
    }
    // Interleaved, as mixed traffic reaches a server: the code V8 optimizes has seen every path,
    // and a path's first window does not hold the deoptimization of code that only the previous
    // path had warmed (measured: the first /hello window after 10,000 /users/42 cost ~88k
    // instructions a request, the next ones ~63k).
    for (let i = 0; i < opts.warmup; i++) for (const path of paths) await run(path, 1);
    await control(child.pid, "-i", "on");
    const perPath = {};
    for (const path of paths) {
      const windows = [];
      let profile;
      for (let w = 0; w < opts.windows; w++) {
        await control(child.pid, "-z");
        await run(path, opts.requests);
        const before = new Set(readdirSync(outDir));
        await control(child.pid, "-d");
        const dump = readdirSync(outDir).find(
          (f) => !before.has(f) && f.startsWith(`cg.${child.pid}.`),
        );
        if (dump === undefined) throw new Error("callgrind wrote no dump");
        const last = w === opts.windows - 1;
        const top = last ? opts.profile : 0;
        const read = readDump(join(outDir, dump), top, top > 0 ? readPerfMap(child.pid) : []);
        rmSync(join(outDir, dump));
        windows.push(read.total / opts.requests);
        if (last) profile = { own: read.functions, inclusive: read.inclusive };
      }
      perPath[path] = { windows, profile };
      log(
        `  ${server.name} ${path}: ${windows.map((x) => Math.round(x).toLocaleString("en-US")).join(", ")} instructions/request`,
      );
    }
    return { perPath };
  } catch (e) {
    return { error: `${e.message} ${output.trim().slice(-300)}` };
  } finally {
    close();
    child.kill("SIGKILL");
    if (!exited) await new Promise((r) => child.once("exit", r));
    rmSync(`/tmp/perf-${child.pid}.map`, { force: true }); // --perf-basic-prof's map
  }
}

// ---------------------------------------------------------------- report

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const k = (n) => (Number.isFinite(n) ? `${(n / 1000).toFixed(1)}k` : "–");
const x = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : "–");

function render(results, opts, baselineOf) {
  const base = results.get(BASELINE)?.perPath;
  const head = ["server"];
  for (const p of opts.paths) head.push(`${p} instr/req (median, min–max)`, `× ${BASELINE}`);
  if (opts.paths.length === 2) head.push(`${opts.paths[1]} ÷ ${opts.paths[0]}`);
  if (baselineOf.size) head.push("this checkout ÷ this row (medians)");
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => " --- ").join("|")}|`];
  const med = (r, p) => median(r.perPath[p].windows);
  for (const [name, r] of results) {
    if (r.error) {
      lines.push(`| ${name} | ${r.error.replace(/\|/g, "\\|").replace(/\s+/g, " ")} |`);
      continue;
    }
    const cells = [name];
    for (const p of opts.paths) {
      if (r.perPath[p] === undefined) {
        cells.push("–", "–");
        continue;
      }
      const w = r.perPath[p].windows;
      cells.push(`${k(med(r, p))} (${k(Math.min(...w))}–${k(Math.max(...w))})`);
      cells.push(base?.[p] ? x(med(r, p) / median(base[p].windows)) : "–");
    }
    if (opts.paths.length === 2)
      cells.push(
        opts.paths.every((p) => r.perPath[p])
          ? x(med(r, opts.paths[1]) / med(r, opts.paths[0]))
          : "–",
      );
    if (baselineOf.size) {
      const current = results.get(baselineOf.get(name));
      cells.push(
        current?.perPath
          ? opts.paths
              .filter((p) => r.perPath[p] && current.perPath[p])
              .map((p) => `${p} ${x(med(current, p) / med(r, p))}`)
              .join(" · ")
          : "",
      );
    }
    lines.push(`| ${cells.join(" | ")} |`);
  }
  for (const [strata, fastify] of PAIRS) {
    const a = results.get(strata)?.perPath;
    const b = results.get(fastify)?.perPath;
    if (!a || !b) continue;
    const ratios = opts.paths
      .filter((p) => a[p] && b[p])
      .map((p) => `${p} ${x(median(a[p].windows) / median(b[p].windows))}`);
    lines.push("", `${strata} ÷ ${fastify}: ${ratios.join(" · ")}`);
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------- main

const opts = parseArgs(process.argv.slice(2));
for (const tool of ["valgrind", "callgrind_control"])
  if (spawnSync("which", [tool]).status !== 0) die(`${tool} is required (valgrind 3.x)`);
let selected = SERVERS.filter((s) => opts.only.includes(s.name) || s.name === BASELINE);
let baselineOf = new Map();
if (opts.baseline !== undefined) {
  ({ rows: selected, baselineOf } = withBaseline(
    selected,
    buildBaseline(ROOT, opts.baseline, log),
    HERE,
  ));
}
const outDir = mkdtempSync(join(os.tmpdir(), "strata-instructions-"));
const results = new Map();
try {
  for (const server of selected) {
    log(`${server.name}: starting under callgrind`);
    const r = await measure(server, opts, outDir);
    if (r.error) log(`  ${server.name}: ${r.error}`);
    results.set(server.name, r);
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
const rev = spawnSync("git", ["-C", ROOT, "rev-parse", "--short", "HEAD"], { encoding: "utf8" });
console.log(
  `\nInstructions per request (callgrind, user space, all threads; ${opts.windows} window(s) of ` +
    `${opts.requests} after ${opts.warmup} warm-up requests a path; node ${process.version}, ` +
    `strata ${rev.stdout.trim()}${opts.baseline ? `, baseline ${opts.baseline}` : ""}):\n`,
);
console.log(render(results, opts, baselineOf));
if (opts.profile > 0) {
  for (const [name, r] of results) {
    if (!r.perPath) continue;
    for (const [path, { profile }] of Object.entries(r.perPath)) {
      console.log(`\n${name} ${path}: most instructions of their own, per request`);
      for (const f of profile?.own ?? [])
        console.log(`  ${k(f.cost / opts.requests).padStart(8)}  ${f.name}`);
      console.log(`\n${name} ${path}: JavaScript functions, most instructions with their callees`);
      for (const f of profile?.inclusive ?? [])
        console.log(`  ${k(f.cost / opts.requests).padStart(8)}  ${f.name}`);
    }
  }
}
