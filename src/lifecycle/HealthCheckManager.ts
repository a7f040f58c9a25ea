import * as Effect from "effect/Effect";
import { type HealthCheck, type HealthCheckResult, runCheck } from "./HealthCheck.js";
import type { ShutdownManager } from "./ShutdownManager.js";

/** Readiness while the app shuts down: in-flight requests drain, new ones should go elsewhere. */
const shuttingDown: HealthCheckResult = {
  name: "shutdown",
  status: "down",
  details: { error: "Shutting down" },
};

/**
 * The readiness checks of an app (`app.healthCheckManager`, or injected where
 * `OperationsModule` is imported). `GET /ready` runs them all, concurrently, and is down as soon
 * as the app starts shutting down; `GET /health` (liveness) runs none: it answers as long as the
 * process does, draining included.
 *
 * @example
 * declare const app: StrataApp;
 * declare const db: { ping(): Promise<void> };
 *
 * app.healthCheckManager.register({
 *   name: "database",
 *   timeout: 1_000,
 *   check: () => db.ping(),
 * });
 *
 * @since 0.1.0
 * @category lifecycle
 */
export class HealthCheckManager {
  private readonly checks: Array<HealthCheck> = [];

  /**
   * @param shutdown The app's shutdown manager: while it is shutting down, readiness is down
   * without running the checks (`{ name: "shutdown", status: "down" }`).
   */
  constructor(private readonly shutdown?: ShutdownManager) {}

  /** Adds a check; names are unique. */
  register(check: HealthCheck): void {
    if (this.checks.some((existing) => existing.name === check.name)) {
      throw new Error(`A health check named ${JSON.stringify(check.name)} is already registered`);
    }
    this.checks.push(check);
  }

  /**
   * Runs every check concurrently, results in registration order (the Effect face of
   * {@link runAll}); while the app shuts down, none but a down `shutdown` result.
   */
  get run(): Effect.Effect<ReadonlyArray<HealthCheckResult>> {
    return Effect.suspend(() =>
      this.shutdown?.isShuttingDown === true
        ? Effect.succeed([shuttingDown])
        : Effect.forEach([...this.checks], runCheck, { concurrency: "unbounded" }),
    );
  }

  /** Runs every check concurrently; results in registration order (see {@link run}). */
  runAll(): Promise<Array<HealthCheckResult>> {
    return Effect.runPromise(Effect.map(this.run, (results) => [...results]));
  }
}
