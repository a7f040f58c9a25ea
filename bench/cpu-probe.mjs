#!/usr/bin/env node
// The CPU a server spends on one request, without sockets. Not part of the test suite.
//
//   node cpu-probe.mjs <server file> <requests> <rounds> <path> [<path> ...]
//
// Loads the server in this process, takes the `request` listener of the node:http server it
// starts, and hands it requests on in-memory sockets, one at a time (each answered before the
// next): no parsing, no syscalls, no load generator, so what is left is the framework's own
// work per request and the node:http response code every server shares. For each path: one
// checked request (its raw response is parsed: status and JSON body), a warm-up of <requests>,
// then <rounds> rounds of <requests>, each timed with process.cpuUsage (user + system, so
// garbage collection counts). Prints one JSON line per path: status, body, microseconds a
// request in each round.
//
// PROBE_BYTES=1 measures the bytes allocated a request instead: each round's growth of the heap
// (`process.memoryUsage().heapUsed`) ÷ <requests>, after a full GC, with a young generation big
// enough that no GC runs during the round (a round in which one ran is reported as null). Run it
// with `node --expose-gc --min-semi-space-size=256 --max-semi-space-size=256` and at most ~5,000
// requests a round. The in-memory requests themselves allocate ~1.5 KB each, for every server.

import http from "node:http";
import { resolve } from "node:path";
import { Duplex } from "node:stream";
import { pathToFileURL } from "node:url";

const [file, requestsArg, roundsArg, ...paths] = process.argv.slice(2);
const requests = Number(requestsArg);
const rounds = Number(roundsArg);
if (!file || !(requests > 0) || !(rounds > 0) || paths.length === 0) {
  console.error("usage: node cpu-probe.mjs <server file> <requests> <rounds> <path> [<path> ...]");
  process.exit(2);
}

// A request left unanswered would hang the probe: it gives up after 4 minutes in all.
setTimeout(() => {
  console.error("cpu-probe: not done after 240 s (a request left unanswered?)");
  process.exit(1);
}, 240_000).unref();

let server;
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  server = this;
  return listen.apply(this, args);
};
process.env.PORT ??= "0";
await import(pathToFileURL(resolve(file)).href);

/** An in-memory socket: keeps what is written to it when `record` is set. */
class MemorySocket extends Duplex {
  constructor(record) {
    super({ decodeStrings: false });
    this.written = record ? [] : undefined;
  }
  _read() {}
  _write(chunk, _encoding, callback) {
    this.written?.push(Buffer.from(chunk));
    callback();
  }
}

const HEADERS = { host: "127.0.0.1", "user-agent": "cpu-probe", accept: "*/*" };
let RAW_HEADERS = Object.entries(HEADERS).flat();

/** One GET of `path`, answered by `server`; resolves with its socket once the answer is sent. */
const request = (path, record) =>
  new Promise((resolveRequest) => {
    const socket = new MemorySocket(record);
    const req = new http.IncomingMessage(socket);
    req.method = "GET";
    req.url = path;
    req.headers = { ...HEADERS };
    req.rawHeaders = RAW_HEADERS;
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.httpVersion = "1.1";
    req.complete = true;
    req.push(null);
    const res = new http.ServerResponse(req);
    res.assignSocket(socket);
    res.once("finish", () => resolveRequest(socket));
    server.emit("request", req, res);
  });

/** Status and body of a raw HTTP/1.1 response (content-length or chunked). */
const parse = (raw) => {
  const text = raw.toString("latin1");
  const split = text.indexOf("\r\n\r\n");
  const head = text.slice(0, split);
  let body = text.slice(split + 4);
  if (/^transfer-encoding:\s*chunked/im.test(head)) {
    let decoded = "";
    for (let at = 0; ; ) {
      const eol = body.indexOf("\r\n", at);
      const size = Number.parseInt(body.slice(at, eol), 16);
      if (!(size > 0)) break;
      decoded += body.slice(eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    body = decoded;
  }
  return { status: Number(head.split(" ")[1]), body: Buffer.from(body, "latin1").toString() };
};

const deadline = Date.now() + 30_000;
while (server === undefined || server.listenerCount("request") === 0) {
  if (Date.now() > deadline) throw new Error("no node:http server with a request listener");
  await new Promise((r) => setTimeout(r, 10));
}

// PROBE_LOGIN=<path>: GET it first and send the cookie it sets with every request after.
if (process.env.PROBE_LOGIN) {
  const raw = Buffer.concat((await request(process.env.PROBE_LOGIN, true)).written).toString(
    "latin1",
  );
  const cookie = /^set-cookie:\s*([^;\r\n]*)/im.exec(raw)?.[1];
  if (cookie === undefined) throw new Error(`${process.env.PROBE_LOGIN} set no cookie`);
  HEADERS.cookie = cookie;
  RAW_HEADERS = Object.entries(HEADERS).flat();
}

/** Young-generation collections so far (PROBE_BYTES): a round during which one ran is void. */
let collections = 0;
if (process.env.PROBE_BYTES) {
  const { PerformanceObserver } = await import("node:perf_hooks");
  new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  }).observe({ entryTypes: ["gc"] });
}
/** Lets the GC observer report what happened so far. */
const settle = () => new Promise((r) => setTimeout(r, 20));

for (const path of paths) {
  // The first answer may wait for the app to finish starting; it is the one checked.
  const checked = parse(Buffer.concat((await request(path, true)).written));
  const batch = async () => {
    for (let i = 0; i < requests; i++) await request(path, false);
  };
  await batch();
  if (process.env.PROBE_BYTES) {
    const bytes = [];
    for (let round = 0; round < rounds; round++) {
      globalThis.gc();
      await settle();
      const before = collections;
      const heap = process.memoryUsage().heapUsed;
      await batch();
      const grown = process.memoryUsage().heapUsed - heap;
      await settle();
      bytes.push(collections === before ? Math.round(grown / requests) : null);
    }
    console.log(JSON.stringify({ path, ...checked, bytes }));
    continue;
  }
  const us = [];
  for (let round = 0; round < rounds; round++) {
    const before = process.cpuUsage();
    await batch();
    const used = process.cpuUsage(before);
    us.push((used.user + used.system) / requests);
  }
  console.log(JSON.stringify({ path, ...checked, us }));
}
process.exit(0);
