import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as LogLevel from "effect/LogLevel";
import type { StartupError } from "../di/StartupError.js";
import { HealthPaths } from "../lifecycle/HealthPaths.js";
import * as Middleware from "./Middleware.js";
import { requestPath } from "./RequestInfo.js";

/**
 * Options of {@link make} and {@link LoggerMiddleware}.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface LoggerOptions {
  /** The level of the request lines (default `Info`). */
  readonly level?: LogLevel.Literal;
  /** Paths not logged, matched exactly (default: the health probes, see `HealthPaths`). */
  readonly exclude?: ReadonlyArray<string>;
}

/** The status logged for a request the client abandoned (nginx's convention). */
const CLIENT_CLOSED = 499;

/**
 * Request logging as an Effect `HttpMiddleware`: one line per request through Effect's logger
 * (so `Logger.json`, `Logger.logFmt` or any replacement applies), message `HTTP request`, with
 * the annotations `method`, `path` (never the query string, which may carry codes or tokens),
 * `status` (499 when the client went away first) and `durationMs`. No header, cookie or body
 * is ever logged.
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (
  options: LoggerOptions = {},
): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError> =>
  Effect.gen(function* () {
    const exclude = new Set(options.exclude ?? (yield* HealthPaths));
    const level = LogLevel.fromLiteral(options.level ?? "Info");
    return Middleware.makeInfallible((app) =>
      Middleware.withRequest((request) => {
        const path = requestPath(request);
        if (exclude.has(path)) return app;
        return Effect.clockWith((clock) => {
          const start = clock.unsafeCurrentTimeNanos();
          return Effect.onExit(app, (exit) => {
            const durationMs = Number(clock.unsafeCurrentTimeNanos() - start) / 1_000_000;
            const status = Exit.isSuccess(exit)
              ? exit.value.status
              : Cause.isInterruptedOnly(exit.cause)
                ? CLIENT_CLOSED
                : 500;
            return Effect.logWithLevel(level, "HTTP request").pipe(
              Effect.annotateLogs({
                method: request.method,
                path,
                status,
                durationMs: Math.round(durationMs * 100) / 100,
              }),
            );
          });
        });
      }),
    );
  });
