import * as Cause from "effect/Cause";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import { fromUserCode } from "../http/UserCode.js";

/** `up` or `down`. @since 0.1.0 @category lifecycle */
export type HealthStatus = "up" | "down";

/**
 * A check's own account of itself: its status, and details shown in the readiness response
 * (keep secrets out of them).
 *
 * @since 0.1.0
 * @category lifecycle
 */
export interface HealthReport {
  readonly status: HealthStatus;
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * What a check answers: `true` or nothing (up), `false` (down), or a {@link HealthReport}.
 *
 * @since 0.1.0
 * @category lifecycle
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a check may be any function returning nothing (or a Promise<void>).
export type HealthCheckOutcome = boolean | HealthReport | void;

/**
 * A readiness check: something the app needs in order to serve (a database, a queue, ...).
 * `check` answers a {@link HealthCheckOutcome}, directly, as a Promise or as an Effect;
 * throwing, failing, or not answering within `timeout` ms (default 5 000) counts as down.
 *
 * @since 0.1.0
 * @category lifecycle
 */
export interface HealthCheck {
  /** The check's name in the readiness response. */
  readonly name: string;
  /** Answers whether the dependency is up. */
  readonly check: () =>
    | HealthCheckOutcome
    | Promise<HealthCheckOutcome>
    | Effect.Effect<HealthCheckOutcome, unknown>;
  /** Milliseconds before the check counts as down (default 5 000). */
  readonly timeout?: number;
}

/**
 * The result of one check. `details` of a failed check say only that it failed or timed out:
 * the error itself goes to the log, not to the (often public) readiness response.
 *
 * @since 0.1.0
 * @category lifecycle
 */
export interface HealthCheckResult {
  readonly name: string;
  readonly status: HealthStatus;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** The default timeout of a check: 5 000 ms. @since 0.1.0 @category lifecycle */
export const DEFAULT_CHECK_TIMEOUT = 5_000;

const resultOf = (name: string, outcome: unknown): HealthCheckResult => {
  if (outcome === false) return { name, status: "down" };
  if (typeof outcome === "object" && outcome !== null && "status" in outcome) {
    const { status, details } = outcome as HealthReport;
    const normalized: HealthStatus = status === "up" ? "up" : "down";
    return details === undefined
      ? { name, status: normalized }
      : { name, status: normalized, details };
  }
  return { name, status: "up" };
};

/**
 * Runs one check within its timeout; never fails (a failure is a `down` result, logged).
 *
 * @since 0.1.0
 * @category lifecycle
 */
export const runCheck = (check: HealthCheck): Effect.Effect<HealthCheckResult> => {
  const timeout = check.timeout ?? DEFAULT_CHECK_TIMEOUT;
  return fromUserCode(() => check.check()).pipe(
    Effect.timeoutFail({
      duration: Duration.millis(timeout),
      onTimeout: () => "timeout" as const,
    }),
    Effect.map((outcome) => resultOf(check.name, outcome)),
    Effect.catchAllCause((cause) => {
      const timedOut = Cause.failureOption(cause).pipe((failure) =>
        failure._tag === "Some" ? failure.value === "timeout" : false,
      );
      const error = timedOut ? `timed out after ${timeout} ms` : "check failed";
      return Effect.as(Effect.logWarning(`Health check ${check.name}: ${error}`, cause), {
        name: check.name,
        status: "down",
        details: { error },
      } as const);
    }),
  );
};
