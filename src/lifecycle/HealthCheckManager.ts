import * as Effect from "effect/Effect";
import { type HealthCheck, type HealthCheckResult, runCheck } from "./HealthCheck.js";

/**
 * The readiness checks of an app (`app.healthCheckManager`, or injected where
 * `OperationsModule` is imported). `GET /ready` runs them all, concurrently; `GET /health`
 * (liveness) runs none: it answers as long as the process does.
 *
 * @example
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

  /** Adds a check; names are unique. */
  register(check: HealthCheck): void {
    if (this.checks.some((existing) => existing.name === check.name)) {
      throw new Error(`A health check named ${JSON.stringify(check.name)} is already registered`);
    }
    this.checks.push(check);
  }

  /** Runs every check concurrently, results in registration order (the Effect face of {@link runAll}). */
  get run(): Effect.Effect<ReadonlyArray<HealthCheckResult>> {
    return Effect.forEach([...this.checks], runCheck, { concurrency: "unbounded" });
  }

  /** Runs every check concurrently; results in registration order. */
  runAll(): Promise<Array<HealthCheckResult>> {
    return Effect.runPromise(Effect.map(this.run, (results) => [...results]));
  }
}
