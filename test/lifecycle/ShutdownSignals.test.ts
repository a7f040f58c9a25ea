import { type ChildProcess, spawn } from "node:child_process";
import { get } from "node:http";
import { createConnection } from "node:net";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;

interface Child {
  readonly process: ChildProcess;
  readonly lines: Array<string>;
  readonly url: string;
  readonly exit: Promise<number | null>;
  /** Resolves once `count` stdout lines match `pattern`. */
  readonly waitFor: (pattern: RegExp, count?: number) => Promise<void>;
}

const children: Array<ChildProcess> = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts the fixture app in a child process and waits until it listens. */
const startApp = async (env: Record<string, string> = {}): Promise<Child> => {
  const child = spawn(
    process.execPath,
    [
      "--conditions=strata-source",
      "--import",
      "./scripts/register.mjs",
      "test/lifecycle/fixtures/shutdown-app.ts",
    ],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  const lines: Array<string> = [];
  const waiters: Array<() => void> = [];
  let buffered = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    lines.push(...parts);
    for (const waiter of waiters) waiter();
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const waitFor = (pattern: RegExp, count = 1) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (lines.filter((line) => pattern.test(line)).length >= count) resolve();
      };
      waiters.push(check);
      check();
      exit.then(() =>
        reject(new Error(`the app exited before ${pattern}: ${lines.join("\n")}\n${stderr}`)),
      );
    });
  await waitFor(/^listening /);
  const url = (lines.find((line) => line.startsWith("listening ")) ?? "").slice(10);
  return { process: child, lines, url, exit, waitFor };
};

/** One GET on its own connection; resolves with the status and body, or the error's code. */
const fetchOnOwnConnection = (url: string) =>
  new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    get(url, { agent: false }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", (error: NodeJS.ErrnoException) =>
        resolve({ error: error.code ?? error.message }),
      );
    }).on("error", (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message }),
    );
  });

const refusesConnections = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = createConnection({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });

describe("graceful shutdown on a signal (a real child process)", () => {
  it("lets 20 in-flight requests finish, refuses new connections, runs handlers then destroy hooks, exits 0", async () => {
    const app = await startApp({ DELAY: "800" });
    const responses = Array.from({ length: 20 }, (_, i) =>
      fetchOnOwnConnection(`${app.url}/slow/${i}`),
    );
    await app.waitFor(/^started /, 20);
    app.process.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await refusesConnections(app.url)).toBe(true);

    const answers = await Promise.all(responses);
    expect(answers).toEqual(
      Array.from({ length: 20 }, (_, i) => ({
        status: 200,
        body: JSON.stringify({ id: String(i) }),
      })),
    );
    expect(await app.exit).toBe(0);
    const order = app.lines.filter(
      (line) => !line.startsWith("started") && !line.startsWith("listening"),
    );
    expect(order.slice(0, 20).every((line) => line.startsWith("finished "))).toBe(true);
    expect(order.slice(20)).toEqual(["handler SIGTERM", "destroy Store"]);
  }, 30_000);

  it("exits 0 on SIGINT too", async () => {
    const app = await startApp();
    app.process.kill("SIGINT");
    expect(await app.exit).toBe(0);
    expect(app.lines.slice(1)).toEqual(["handler SIGINT", "destroy Store"]);
  }, 30_000);

  it("interrupts requests still running at the deadline, then finishes the shutdown", async () => {
    const app = await startApp({ DELAY: "20000", SHUTDOWN_TIMEOUT: "300" });
    const response = fetchOnOwnConnection(`${app.url}/slow/1`);
    await app.waitFor(/^started 1$/);
    const signalled = Date.now();
    app.process.kill("SIGTERM");
    expect(await app.exit).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(5_000);
    expect(await response).toHaveProperty("error");
    expect(app.lines).toContain("handler SIGTERM");
    expect(app.lines).toContain("destroy Store");
    expect(app.lines).not.toContain("finished 1");
  }, 30_000);
});
