import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./freePort.js";

/**
 * Where the run's PostgreSQL lives: a loopback port and a temporary directory. Nothing runs
 * until a test asks for it ({@link startedPostgres}): `initdb` takes seconds, which runs that
 * use no database should not pay.
 */
export interface PostgresPlace {
  readonly port: number;
  readonly dir: string;
}

/** The maintenance database's URL on `place` (user `effect-strata`, trust authentication). */
export const postgresUrl = (place: PostgresPlace, database = "postgres"): string =>
  `postgres://strata@127.0.0.1:${place.port}/${database}`;

/** The directory of `initdb` and `postgres` (Debian keeps them off the PATH), if installed. */
const findBinDir = (): string | undefined => {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length > 0) return join(root, versions[0] as string, "bin");
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
    return existsSync(join(dir, "initdb")) && existsSync(join(dir, "postgres")) ? dir : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The directory of the PostgreSQL server binaries, installing Debian's `postgresql` package
 * first when they are missing (as root, the way CI runs).
 */
export const ensurePostgres = (): string => {
  const found = findBinDir();
  if (found !== undefined) return found;
  if (process.getuid?.() !== 0) {
    throw new Error(
      "PostgreSQL is not installed and cannot be installed here (needs root and apt-get): run `apt-get install -y postgresql`",
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "ignore", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "postgresql"], { stdio: "ignore", env });
  const installed = findBinDir();
  if (installed === undefined) {
    throw new Error("apt-get install postgresql did not provide initdb and postgres");
  }
  return installed;
};

/**
 * Who runs the server: PostgreSQL refuses to run as root, so as root it runs as the
 * `postgres` user the Debian package creates; otherwise as the current user.
 */
const serverUser = (): { readonly uid: number; readonly gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined;
  const entry = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .map((line) => line.split(":"))
    .find((fields) => fields[0] === "postgres");
  if (entry === undefined) throw new Error("no `postgres` user to run PostgreSQL as (not root)");
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
};

/** `true` once the server on `port` answers (`pg_isready`). */
const ready = (bin: string, port: number) =>
  new Promise<boolean>((resolve) => {
    // A TCP connect first: cheaper than a process while nothing listens yet.
    const socket = createConnection({ port, host: "127.0.0.1" });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => {
      socket.destroy();
      const check = spawn(join(bin, "pg_isready"), ["-q", "-h", "127.0.0.1", "-p", String(port)], {
        stdio: "ignore",
      });
      check.once("error", () => resolve(false));
      check.once("exit", (code) => resolve(code === 0));
    });
  });

/** Runs `child` to completion; rejects with its error output when it fails. */
const completed = (child: ChildProcess, command: string) =>
  new Promise<void>((resolve, reject) => {
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (${code}): ${stderr}`)),
    );
  });

/**
 * For the global setup: a free loopback port and a temporary directory (owned by the server's
 * user) for the run's PostgreSQL, installing PostgreSQL first when it is missing. Nothing is
 * started; `stop` stops the server if a test started one, and removes the directory.
 */
export const preparePostgres = async (): Promise<
  PostgresPlace & { readonly stop: () => Promise<void> }
> => {
  ensurePostgres();
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), "strata-pg-"));
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  const port = await freePort();
  const stop = async () => {
    const pidFile = join(dir, "data", "postmaster.pid");
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").split("\n")[0]) : NaN;
    if (Number.isInteger(pid) && pid > 0) {
      try {
        // SIGINT: PostgreSQL's fast shutdown (ends sessions, does not wait for clients).
        process.kill(pid, "SIGINT");
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline) {
          process.kill(pid, 0);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } catch {
        // gone
      }
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  return { port, dir, stop };
};

/**
 * The run's PostgreSQL at `place`, started by the first test that asks (any worker: a lock
 * directory decides which) and waited for by the others. The server outlives the worker that
 * started it; the global setup's `stop` ends it after the run.
 */
export const startedPostgres = async (place: PostgresPlace, timeoutMs = 60_000): Promise<void> => {
  const bin = ensurePostgres();
  let first = true;
  try {
    mkdirSync(join(place.dir, "lock"));
  } catch {
    first = false;
  }
  if (first) {
    const user = serverUser();
    const owner = user === undefined ? {} : { uid: user.uid, gid: user.gid };
    const data = join(place.dir, "data");
    await completed(
      spawn(
        join(bin, "initdb"),
        ["-D", data, "-U", "strata", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"],
        { stdio: ["ignore", "ignore", "pipe"], cwd: place.dir, ...owner },
      ),
      "initdb",
    );
    spawn(
      join(bin, "postgres"),
      [
        "-D",
        data,
        "-p",
        String(place.port),
        "-h",
        "127.0.0.1",
        "-k",
        place.dir,
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
      ],
      { stdio: "ignore", cwd: place.dir, detached: true, ...owner },
    ).unref();
  }
  const deadline = Date.now() + timeoutMs;
  while (!(await ready(bin, place.port))) {
    if (Date.now() > deadline) throw new Error(`postgres did not start on port ${place.port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
