import type * as RateLimiter from "@effect/experimental/RateLimiter";
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type * as Scope from "effect/Scope";
import { causeToResponse, errorResponse } from "../core/ErrorResponse.js";
import { ServiceUnavailableError, TooManyRequestsError } from "../core/HttpError.js";
import { setResponseHeaders } from "../core/ResponseHeaders.js";
import { fromUserCode } from "../core/UserCode.js";
import { StartupError } from "../di/StartupError.js";
import { HealthPaths } from "../lifecycle/HealthPaths.js";
import { EffectMiddleware } from "./EffectMiddleware.js";
import { loadRateLimiter } from "./internal/loadRateLimiter.js";
import * as MemoryRateLimitStore from "./MemoryRateLimitStore.js";
import * as Middleware from "./Middleware.js";
import { clientAddress, requestPath, type TrustProxy } from "./RequestInfo.js";

/**
 * Options of {@link make} and {@link RateLimitMiddleware}.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface RateLimitOptions {
  /** The window, in milliseconds (default 60 000). */
  readonly windowMs?: number;
  /** Requests a key may make per window (default 100). */
  readonly max?: number;
  /**
   * `fixed-window` (the default; as `@effect/experimental` implements it, each request adds
   * `windowMs / max` to its key's lifetime and the count starts over when that runs out) or
   * `token-bucket` (`max` tokens, one back every `windowMs / max`).
   */
  readonly algorithm?: "fixed-window" | "token-bucket";
  /**
   * What is counted: the client's address by default. Return a string, a Promise or an Effect
   * of one (an API key, a user id, ...); a failure answers 500.
   */
  readonly key?: (
    request: HttpServerRequest.HttpServerRequest,
  ) => string | Promise<string> | Effect.Effect<string, unknown>;
  /** Which `X-Forwarded-For` entry is the client (default false: ignored; see `TrustProxy`). */
  readonly trustProxy?: TrustProxy;
  /**
   * Where counts are kept: `MemoryRateLimitStore.layer` (the default; one process) or
   * `RedisRateLimitStore.layer({ host, port })` (shared by every instance).
   */
  readonly store?: Layer.Layer<RateLimiter.RateLimiterStore, StartupError>;
  /**
   * When the store fails (Redis unreachable or too slow): `"open"` (the default) serves the
   * request without limit, `"closed"` answers 503. Either way a warning is logged when the
   * store goes down and a line when it is back.
   */
  readonly onStoreError?: "open" | "closed";
  /** Paths never limited, matched exactly (default: the health probes, see `HealthPaths`). */
  readonly exclude?: ReadonlyArray<string>;
  /** The message of the 429 (default `Too Many Requests`). */
  readonly message?: string;
}

/** The defaults: 100 requests per 60 000 ms. @since 0.1.0 @category middleware */
export const DEFAULT_RATE_LIMIT = { windowMs: 60_000, max: 100 } as const;

const seconds = (duration: Duration.Duration) =>
  String(Math.max(1, Math.ceil(Duration.toMillis(duration) / 1000)));

const isPositive = (n: number) => Number.isFinite(n) && n > 0;

/**
 * Rate limiting as an Effect `HttpMiddleware`, on `@effect/experimental`'s `RateLimiter`. Each
 * response carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds); over
 * the limit the route is not run and the answer is 429 in the standard error shape with
 * `Retry-After` (seconds). Requests are counted per client address: the socket's, unless
 * `trustProxy` says to believe `X-Forwarded-For` (anyone can send that header).
 * The store is built in the scope (a Redis connection is closed with it).
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (
  options: RateLimitOptions = {},
): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> =>
  Effect.gen(function* () {
    const windowMs = options.windowMs ?? DEFAULT_RATE_LIMIT.windowMs;
    const max = options.max ?? DEFAULT_RATE_LIMIT.max;
    if (!isPositive(windowMs) || !isPositive(max) || !Number.isInteger(max)) {
      return yield* new StartupError({
        message: `Rate limit: windowMs (${windowMs}) must be a positive number of ms and max (${max}) a positive integer`,
      });
    }
    const store = yield* Layer.build(options.store ?? MemoryRateLimitStore.layer);
    const { make: makeLimiter } = yield* loadRateLimiter;
    const limiter = yield* Effect.provide(makeLimiter, store);
    const exclude = new Set(options.exclude ?? (yield* HealthPaths));
    const trustProxy = options.trustProxy ?? false;
    const failOpen = options.onStoreError !== "closed";
    const window = Duration.millis(windowMs);
    const algorithm = options.algorithm ?? "fixed-window";
    const limit = String(max);
    const tooMany = errorResponse(new TooManyRequestsError(options.message));
    const unavailable = errorResponse(new ServiceUnavailableError());
    let storeDown = false;

    const storeFailed = (error: RateLimiter.RateLimitStoreError) =>
      Effect.suspend(() => {
        if (storeDown) return Effect.void;
        storeDown = true;
        return Effect.logWarning(
          `Rate limit store unavailable: failing ${failOpen ? "open (requests are not limited)" : "closed (requests get 503)"}`,
          error,
        );
      });
    const storeBack = Effect.suspend(() => {
      storeDown = false;
      return Effect.logInfo("Rate limit store available again");
    });

    const answer = {
      onSuccess: (result: RateLimiter.ConsumeResult): Effect.Effect<Middleware.Decoration> => {
        const headers = {
          "ratelimit-limit": limit,
          "ratelimit-remaining": String(Math.max(0, result.remaining)),
          "ratelimit-reset": seconds(result.resetAfter),
        };
        const change = (response: HttpServerResponse.HttpServerResponse) =>
          setResponseHeaders(response, headers);
        return storeDown ? Effect.as(storeBack, change) : Effect.succeed(change);
      },
      onFailure: (error: RateLimiter.RateLimiterError): Effect.Effect<Middleware.Decoration> => {
        if (error.reason === "Exceeded") {
          const retryAfter = seconds(error.retryAfter);
          return Effect.succeed({
            answer: HttpServerResponse.setHeaders(tooMany, {
              "retry-after": retryAfter,
              "ratelimit-limit": limit,
              "ratelimit-remaining": "0",
              "ratelimit-reset": retryAfter,
            }),
          });
        }
        return Effect.as(storeFailed(error), failOpen ? undefined : { answer: unavailable });
      },
    };
    const limited = (key: string) =>
      Effect.matchEffect(limiter.consume({ key, limit: max, window, algorithm }), answer);

    const keyOf = options.key;
    return Middleware.decorating((request) => {
      if (exclude.size > 0 && exclude.has(requestPath(request))) return undefined;
      if (keyOf === undefined) return limited(clientAddress(request, trustProxy));
      // The key function's failures are answered here: this middleware itself never fails.
      return Effect.matchCauseEffect(
        fromUserCode(() => keyOf(request)),
        {
          onFailure: (cause) =>
            Effect.map(causeToResponse(cause), (response) => ({ answer: response })),
          onSuccess: (key) => limited(String(key)),
        },
      );
    });
  });

/**
 * Rate limiting, the classic way:
 * `app.use(new RateLimitMiddleware({ windowMs: 60_000, max: 100 }))`, with
 * `store: RedisRateLimitStore.layer({ host, port })` to share the limit between instances.
 * See {@link make}.
 *
 * @since 0.1.0
 * @category middleware
 */
export class RateLimitMiddleware extends EffectMiddleware {
  constructor(readonly options: RateLimitOptions = {}) {
    super();
  }

  build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return make(this.options);
  }
}
