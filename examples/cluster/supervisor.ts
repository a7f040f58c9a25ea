// The primary's side of running one app on every core with `node:cluster` (docs/deployment.md,
// "All cores of one machine"): N workers share the port (the primary accepts connections and
// hands them out round robin); a worker that dies is replaced, with a back-off when it keeps
// dying; a rolling restart replaces them one at a time; a stop drains them all. Each worker
// stops through the app's own graceful shutdown (readiness down, in-flight requests finished):
// the primary asks it with STOP_MESSAGE, which ./worker.ts turns into a SIGTERM.
import cluster, { type Worker } from "node:cluster";

/** What the primary sends a worker it wants stopped gracefully. */
export const STOP_MESSAGE = "strata:stop";

/** How the primary runs its workers. */
export interface SupervisorOptions {
  /** The worker's entry module (a path). */
  readonly exec: string;
  /** How many workers serve at once. */
  readonly workers: number;
  /** Variables every worker gets on top of the primary's environment (shared secrets). */
  readonly env?: Readonly<Record<string, string>>;
  /** Milliseconds a new worker has to listen, or it counts as failed (default 60 000). */
  readonly startTimeout?: number;
  /**
   * Milliseconds a stopping worker has to drain and exit before it is killed (default 15 000:
   * above Strata's default `shutdown.timeout` of 10 s).
   */
  readonly stopTimeout?: number;
  /** Where the primary says what it does (default: stdout, prefixed `primary:`). */
  readonly log?: (line: string) => void;
}

/** The running workers, as the primary controls them. */
export interface Supervisor {
  /**
   * Replaces every worker, one at a time: a new one is forked and, once it listens, the old one
   * is stopped and waited for. Stops early, keeping the workers still running, when a new
   * worker fails to start. A call during a restart runs once more after it.
   */
  rollingRestart(): Promise<void>;
  /** Stops every worker gracefully (no more replacements); resolves once all have exited. */
  stop(): Promise<void>;
}

/** A worker that listened at least this long before dying resets the back-off. */
const STABLE_AFTER = 10_000;
/** The first back-off after a worker died young; it doubles with each death in a row. */
const FIRST_BACKOFF = 500;
const MAX_BACKOFF = 30_000;

const describe = (worker: Worker) => `worker ${worker.id} (pid ${worker.process.pid})`;

/**
 * Forks `options.workers` workers of `options.exec` and keeps that many running until `stop`.
 * Call it in the primary (`cluster.isPrimary`); the worker's entry must listen on a fixed port
 * (the same in every worker) and stop gracefully on STOP_MESSAGE (see ./worker.ts).
 */
export const superviseWorkers = (options: SupervisorOptions): Supervisor => {
  const startTimeout = options.startTimeout ?? 60_000;
  const stopTimeout = options.stopTimeout ?? 15_000;
  const log = options.log ?? ((line: string) => console.log(`primary: ${line}`));
  cluster.setupPrimary({ exec: options.exec });

  /** The workers that count towards `options.workers` (starting or listening); a death of one is replaced. */
  const serving = new Set<Worker>();
  const listeningSince = new WeakMap<Worker, number>();
  const pending = new Set<NodeJS.Timeout>();
  let stopping = false;
  let youngDeaths = 0;
  let restart: Promise<void> | undefined;
  let again = false;

  /** Forks a worker; resolves once it listens, rejects if it exits or overruns `startTimeout` first. */
  const fork = (): { worker: Worker; listening: Promise<void> } => {
    const worker = cluster.fork(options.env);
    const listening = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        worker.off("listening", onListening);
        worker.process.kill("SIGKILL");
        reject(new Error(`${describe(worker)} did not listen within ${startTimeout} ms`));
      }, startTimeout);
      const onListening = () => {
        clearTimeout(timer);
        listeningSince.set(worker, Date.now());
        log(`${describe(worker)} listening`);
        resolve();
      };
      worker.once("listening", onListening);
      worker.once("exit", () => {
        clearTimeout(timer);
        worker.off("listening", onListening);
        reject(new Error(`${describe(worker)} exited before listening`));
      });
    });
    listening.catch(() => {}); // reported by whoever awaits it, or by the exit handler
    return { worker, listening };
  };

  const startServing = () => {
    if (stopping) return;
    const { worker, listening } = fork();
    serving.add(worker);
    // A worker that never listens dies (or is killed), and the exit handler replaces it.
    listening.catch((error: Error) => log(error.message));
  };

  /** Asks `worker` to stop gracefully; kills it after `stopTimeout`. Resolves once it has exited. */
  const retire = (worker: Worker): Promise<void> => {
    serving.delete(worker);
    if (worker.isDead()) return Promise.resolve();
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    const timer = setTimeout(() => {
      log(`${describe(worker)} still running after ${stopTimeout} ms: killed`);
      worker.process.kill("SIGKILL");
    }, stopTimeout);
    // A worker still starting may not listen for messages yet, and serves nothing: a signal.
    if (listeningSince.has(worker) && worker.isConnected()) worker.send(STOP_MESSAGE);
    else worker.process.kill("SIGTERM");
    return exited.finally(() => clearTimeout(timer));
  };

  cluster.on("exit", (worker, code, signal) => {
    // Retired on purpose (or a candidate of a rolling restart): nothing to replace.
    if (!serving.delete(worker) || stopping) return;
    const since = listeningSince.get(worker);
    youngDeaths = since !== undefined && Date.now() - since >= STABLE_AFTER ? 0 : youngDeaths + 1;
    const delay =
      youngDeaths === 0 ? 0 : Math.min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** (youngDeaths - 1));
    log(`${describe(worker)} died (${signal ?? `code ${code}`}); a new one in ${delay} ms`);
    const timer = setTimeout(() => {
      pending.delete(timer);
      startServing();
    }, delay);
    pending.add(timer);
  });

  const replaceAll = async () => {
    const old = [...serving];
    log(`rolling restart of ${old.length} worker(s)`);
    for (const worker of old) {
      if (stopping) return;
      if (!serving.has(worker)) continue; // died meanwhile: replaced already
      const next = fork();
      try {
        await next.listening;
      } catch (error) {
        log(`rolling restart stopped, the old workers keep serving: ${(error as Error).message}`);
        return;
      }
      if (stopping) return; // `stop` retires every worker, this one included
      serving.add(next.worker);
      await retire(worker);
      log(`${describe(worker)} replaced by ${describe(next.worker)}`);
    }
    log(`rolling restart done: ${[...serving].map((w) => w.process.pid).join(", ")}`);
  };

  const rollingRestart = (): Promise<void> => {
    if (restart !== undefined) {
      again = true;
      return restart;
    }
    restart = (async () => {
      do {
        again = false;
        await replaceAll();
      } while (again && !stopping);
    })().finally(() => {
      restart = undefined;
    });
    return restart;
  };

  const stop = async (): Promise<void> => {
    stopping = true;
    for (const timer of pending) clearTimeout(timer);
    pending.clear();
    const all = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    log(`stopping ${all.length} worker(s)`);
    await Promise.all(all.map(retire));
  };

  for (let i = 0; i < options.workers; i++) startServing();
  return { rollingRestart, stop };
};
