import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./freePort.js";

/** A redis-server started for the tests: loopback only, a temporary directory, no persistence. */
export interface RedisInstance {
  readonly port: number;
  readonly stop: () => Promise<void>;
}

const which = (command: string): string | undefined => {
  try {
    return execFileSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
};

/**
 * The path of `redis-server`, installing Debian's package first when it is missing (as root,
 * the way CI runs): `apt-get update` once, then `apt-get install -y redis-server`.
 */
export const ensureRedisServer = (): string => {
  const found = which("redis-server");
  if (found !== undefined && found !== "") return found;
  if (process.getuid?.() !== 0 || which("apt-get") === undefined) {
    throw new Error(
      "redis-server is not installed and cannot be installed here (needs root and apt-get): run `apt-get install -y redis-server`",
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "ignore", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "redis-server"], { stdio: "ignore", env });
  const installed = which("redis-server");
  if (installed === undefined || installed === "") {
    throw new Error("apt-get install redis-server did not provide redis-server");
  }
  return installed;
};

/** `true` once something on `port` answers a Redis PING. */
const pings = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });

/** Starts `redis-server` on `port` (a free one by default) and waits until it answers. */
export const startRedis = async (port?: number): Promise<RedisInstance> => {
  const binary = ensureRedisServer();
  const chosen = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "strata-redis-"));
  const child = spawn(
    binary,
    [
      "--port",
      String(chosen),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
      "--daemonize",
      "no",
      "--logfile",
      "",
    ],
    { stdio: "ignore" },
  );
  const stop = async () => {
    child.kill("SIGTERM");
    await exited(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await pings(chosen))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not start on port ${chosen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port: chosen, stop };
};
