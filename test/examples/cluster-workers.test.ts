// examples/cluster/workers.ts over real processes (issue 26.3): a primary and two workers of the
// social-login demo sharing one port with node:cluster. Which worker answered is in the
// X-Strata-Instance header (`worker-<pid>`); the primary's workers are its children in /proc.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { Agent, get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/freePort.js";

const WORKERS = 2;
const ROOT = new URL("../../", import.meta.url).pathname;

let primary: ChildProcess;
let base: string;
let output = "";
let exited: Promise<number | null>;

/** The pids of the primary's child processes (its workers), sorted. */
const workerPids = (): Array<number> => {
  const pid = primary.pid as number;
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
      .sort((a, b) => a - b);
  } catch {
    return [];
  }
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 60_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** The worker that answered `/health` (`worker-<pid>`), on a new connection each time. */
const answeredBy = (): Promise<string | null> =>
  // node:http on a connection of its own (not fetch's pool): every outcome settles, a reset too.
  new Promise((resolve, reject) => {
    const request = httpGet(`${base}/health`, { agent: false }, (response) => {
      response.resume();
      response.on("end", () =>
        response.statusCode === 200
          ? resolve((response.headers["x-strata-instance"] as string | undefined) ?? null)
          : reject(new Error(`/health answered ${response.statusCode}`)),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.setTimeout(10_000, () => request.destroy(new Error("/health: no answer in 10 s")));
  });

/** The pids of the workers that answer `count` requests, sorted. */
const responders = async (count = 20) =>
  [...new Set(await Promise.all(Array.from({ length: count }, answeredBy)))]
    .map((name) => Number(/^worker-(\d+)$/.exec(name ?? "")?.[1]))
    .sort((a, b) => a - b);

/** Keep-alive connections for the load, as a browser or a proxy keeps them. */
const agent = new Agent({ keepAlive: true, maxSockets: 10 });

/**
 * A GET through `agent` (or on a new connection, `fresh`): the status, or the error's code and
 * whether the socket was reused.
 */
const get = (url: string, fresh = false) =>
  new Promise<{ status?: number; error?: string; reused: boolean }>((resolve) => {
    // Every outcome resolves once (later events are no-ops): an answer, an error of the request
    // or of its response, or a close with neither.
    const failed = (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message, reused: request.reusedSocket });
    const request = httpGet(url, { agent: fresh ? false : agent }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode, reused: false }));
      response.on("error", failed);
      response.on("close", () => resolve({ error: "closed", reused: request.reusedSocket }));
    });
    request.on("error", failed);
    request.on("close", () => resolve({ error: "closed", reused: request.reusedSocket }));
    // A connection the primary handed to a draining worker can also go unanswered (the known
    // defect below): it ends as a reset after 5 s instead of holding the test.
    request.setTimeout(5_000, () =>
      request.destroy(Object.assign(new Error("no answer in 5 s"), { code: "ECONNRESET" })),
    );
  });

/** Listening workers the primary has announced since `from` (an offset in its output). */
const listeningSince = (from: number) => output.slice(from).match(/ listening\n/g)?.length ?? 0;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  primary = spawn(
    process.execPath,
    [
      "--conditions=strata-source",
      "--import",
      "./scripts/register.mjs",
      "examples/cluster/workers.ts",
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        WORKERS: String(WORKERS),
        PORT: String(port),
        // The workers share one accounts file, a fresh one (not the demo's own).
        ACCOUNTS_DB: join(mkdtempSync(join(tmpdir(), "strata-workers-")), "accounts.db"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  primary.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  primary.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  exited = new Promise((resolve) => primary.once("exit", (code) => resolve(code)));
  await until("two workers listening", () => listeningSince(0) >= WORKERS, 120_000);
}, 130_000);

afterAll(() => {
  agent.destroy();
  if (primary.exitCode === null && primary.signalCode === null) {
    for (const pid of workerPids()) process.kill(pid, "SIGKILL");
    primary.kill("SIGKILL");
  }
});

describe("examples/cluster/workers.ts", () => {
  it("every worker answers on the one port", async () => {
    const pids = workerPids();
    expect(pids).toHaveLength(WORKERS);
    expect(await responders()).toEqual(pids);
  });

  it("a sign-in started on one worker finishes on the other (one sealing key), its session is valid on both", async () => {
    // A new connection per request: the primary hands them to the workers in turn.
    const send = (path: string, cookie = "") =>
      fetch(base + path, { redirect: "manual", headers: { connection: "close", cookie } });
    const started = await send("/auth/github");
    expect(started.status).toBe(302);
    const first = started.headers.get("x-strata-instance");
    const transaction = started.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    const authorization = new URL(started.headers.get("location") ?? "");
    const page = await fetch(authorization);
    const requestId = /name="request" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
    const posted = await fetch(authorization.origin + authorization.pathname, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ request: requestId, user: "ada" }).toString(),
    });
    const callback = new URL(posted.headers.get("location") ?? "");
    // The next connection goes to the other worker once `first` has answered the last one.
    await until("the first worker answering", async () => (await answeredBy()) === first);
    const done = await send(callback.pathname + callback.search, transaction);
    expect(done.headers.get("x-strata-instance")).not.toBe(first);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    const session = done.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    const seenBy = new Set<string | null>();
    for (let i = 0; i < 4; i++) {
      const seen = await send("/auth/session", session);
      expect(seen.status).toBe(200);
      seenBy.add(seen.headers.get("x-strata-instance"));
    }
    expect(seenBy.size).toBe(WORKERS);
  });

  it("SIGHUP: a rolling restart under steady load loses no request and ends with new workers", async () => {
    const before = workerPids();
    const from = output.length;
    let sent = 0;
    let answered = 0;
    let retried = 0;
    let resetFresh = 0;
    const failed: Array<string> = [];
    let loading = true;
    const client = async () => {
      while (loading) {
        sent++;
        // A keep-alive connection the draining worker closed as the request went out: retried
        // once on a new connection, as browsers do (RFC 9112, 9.3.1.1: an idempotent request).
        let outcome = await get(`${base}/health`);
        if (outcome.reused && outcome.error === "ECONNRESET") {
          retried++;
          outcome = await get(`${base}/health`, true);
        }
        if (outcome.status === 200) answered++;
        // Known defect (docs/deployment.md): a connection handed to a worker as its drain begins
        // may be reset before its first request is read. Counted, bounded, not hidden.
        else if (!outcome.reused && outcome.error === "ECONNRESET") resetFresh++;
        else failed.push(`${outcome.error ?? outcome.status}${outcome.reused ? " (reused)" : ""}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    const load = Promise.all(Array.from({ length: 10 }, client));
    await until("some load", () => sent > 200);
    primary.kill("SIGHUP");
    await until("the rolling restart", () => output.includes("rolling restart done"), 120_000);
    const atEnd = sent;
    await until("200 requests to the new workers", () => sent > atEnd + 200);
    loading = false;
    await load;
    console.log(
      `rolling restart: sent ${sent}, answered ${answered}, failed ${failed.length} ${failed.slice(0, 3).join(" ")}, ${resetFresh} new connection(s) reset (${retried} retried on a reused connection)`,
    );
    expect(failed).toEqual([]);
    expect(answered + resetFresh).toBe(sent);
    expect(resetFresh).toBeLessThanOrEqual(sent / 5_000);
    const after = workerPids();
    expect(after).toHaveLength(WORKERS);
    expect(after.filter((pid) => before.includes(pid))).toEqual([]);
    expect(listeningSince(from)).toBe(WORKERS);
    expect(await responders()).toEqual(after);
  }, 180_000);

  it("a worker that dies is replaced", async () => {
    const [victim, survivor] = workerPids();
    process.kill(victim as number, "SIGKILL");
    await until("a new worker", () => {
      const pids = workerPids();
      return pids.length === WORKERS && !pids.includes(victim as number);
    });
    const [replacement] = workerPids().filter((pid) => pid !== survivor);
    await until("the new worker answering", async () =>
      (await responders(6)).includes(replacement as number),
    );
    expect(output).toMatch(new RegExp(`pid ${victim}\\) died \\(SIGKILL\\)`));
  }, 90_000);

  it("SIGTERM: every worker drains, the primary exits 0, no worker is left", async () => {
    const pids = workerPids();
    primary.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
    expect(output).toContain("every worker has stopped");
  }, 60_000);
});
