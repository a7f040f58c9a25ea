import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type * as Scope from "effect/Scope";
import { StartupError } from "../di/StartupError.js";
import { causeToResponse, errorResponse } from "../http/ErrorResponse.js";
import { ServiceUnavailableError, TooManyRequestsError } from "../http/HttpError.js";
import { fromUserCode } from "../http/UserCode.js";
import { HealthPaths } from "../lifecycle/HealthPaths.js";
import { setResponseHeaders } from "../server/internal/FastPath.js";
import { clientKeyOf } from "./internal/clientKey.js";
import * as MemoryRateLimitStore from "./MemoryRateLimitStore.js";
import * as Middleware from "./Middleware.js";
import {
  type BucketTake,
  RateLimitStore,
  type RateLimitStoreError,
  type WindowCount,
} from "./RateLimitStore.js";
import { requestPath } from "./RequestInfo.js";
import * as TrustProxy from "./TrustProxy.js";

/**
 * Options of {@link make} and {@link RateLimitMiddleware}.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface RateLimitOptions {
  /** The window, in whole milliseconds (default 60 000). */
  readonly windowMs?: number;
  /** Requests a key may make per window (default 100). */
  readonly max?: number;
  /**
   * `fixed-window` (the default, as express-rate-limit and @nestjs/throttler count): a key's
   * window opens at its first request and lasts `windowMs`; `max` requests pass in it, the
   * others get 429 until it ends. `token-bucket`: `max` tokens, one back every `windowMs / max`,
   * so bursts are spread rather than reset at once.
   */
  readonly algorithm?: "fixed-window" | "token-bucket";
  /**
   * What is counted: the client's address by default. Return a string, a Promise or an Effect
   * of one (an API key, a user id, ...); a failure answers 500.
   */
  readonly key?: (
    request: HttpServerRequest.HttpServerRequest,
  ) => string | Promise<string> | Effect.Effect<string, unknown>;
  /**
   * Which `X-Forwarded-For` entry is the client (default false: ignored): the number of proxies
   * in front of the app, or their addresses and CIDR ranges (see `TrustProxy`). `true` is
   * refused at startup: it believes the leftmost entry, which the client writes itself.
   */
  readonly trustProxy?: TrustProxy.TrustProxy;
  /**
   * IPv6 clients are counted per network of this prefix length (default 64, what one host or
   * home is usually given, as express-rate-limit's `ipv6Subnet`); `false` counts each address.
   * IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) count as their IPv4 address.
   */
  readonly ipv6Subnet?: number | false;
  /**
   * Where counts are kept: `MemoryRateLimitStore.layer` (the default; one process) or
   * `RedisRateLimitStore.layer({ host, port })` (shared by every instance).
   */
  readonly store?: Layer.Layer<RateLimitStore, StartupError>;
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

export { DEFAULT_IPV6_SUBNET } from "./internal/clientKey.js";

/** Whole seconds until `ms` have passed (a header is never early). */
const seconds = (ms: number) => String(Math.max(0, Math.ceil(ms / 1000)));

const isPositiveInteger = (n: number) => Number.isSafeInteger(n) && n > 0;

/** The window and the count that cannot work, said at startup. */
const checkLimits = (windowMs: number, max: number) =>
  !isPositiveInteger(windowMs) || !isPositiveInteger(max)
    ? `windowMs (${windowMs}) must be a positive whole number of ms and max (${max}) a positive integer`
    : undefined;

/**
 * Rate limiting as an Effect `HttpMiddleware`. By default a fixed window per client: its
 * first request opens a window of `windowMs`, `max` requests pass in it, the next get 429
 * until it ends. Each response carries `RateLimit-Limit`, `RateLimit-Remaining` (one less per
 * request) and `RateLimit-Reset` (seconds until the window ends); over the limit the route is
 * not run and the answer is 429 in the standard error shape with `Retry-After` (seconds until
 * a request passes again). Requests are counted per client address (an IPv6 client per /64):
 * the socket's, unless `trustProxy` says which `X-Forwarded-For` entry a proxy of yours wrote.
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
    const problem = checkLimits(windowMs, max);
    if (problem !== undefined)
      return yield* new StartupError({ message: `Rate limit: ${problem}` });
    const clientKey = yield* clientKeyOf(options).pipe(
      Effect.mapError((message) => new StartupError({ message: `Rate limit: ${message}` })),
    );
    const store = Context.get(
      yield* Layer.build(options.store ?? MemoryRateLimitStore.layer),
      RateLimitStore,
    );
    const exclude = new Set(options.exclude ?? (yield* HealthPaths));
    const failOpen = options.onStoreError !== "closed";
    const refillMs = windowMs / max;
    const limit = String(max);
    const tooMany = errorResponse(new TooManyRequestsError(options.message));
    const unavailable = errorResponse(new ServiceUnavailableError());
    let storeDown = false;

    const storeFailed = (error: RateLimitStoreError) =>
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

    /** The decoration of a counted request: headers when it passes, a 429 when it does not. */
    const decoration = (
      passes: boolean,
      remaining: number,
      resetMs: number,
      retryMs: number,
    ): Effect.Effect<Middleware.Decoration> => {
      if (!passes) {
        return Effect.succeed({
          answer: HttpServerResponse.setHeaders(tooMany, {
            "retry-after": seconds(retryMs),
            "ratelimit-limit": limit,
            "ratelimit-remaining": "0",
            "ratelimit-reset": seconds(resetMs),
          }),
        });
      }
      const headers = {
        "ratelimit-limit": limit,
        "ratelimit-remaining": String(remaining),
        "ratelimit-reset": seconds(resetMs),
      };
      const change = (response: HttpServerResponse.HttpServerResponse) =>
        setResponseHeaders(response, headers);
      return storeDown ? Effect.as(storeBack, change) : Effect.succeed(change);
    };
    const onStoreError = (error: RateLimitStoreError): Effect.Effect<Middleware.Decoration> =>
      Effect.as(storeFailed(error), failOpen ? undefined : { answer: unavailable });

    const counted =
      options.algorithm === "token-bucket"
        ? (key: string) =>
            Effect.matchEffect(store.tokenBucket(key, max, refillMs), {
              onFailure: onStoreError,
              onSuccess: (take: BucketTake) =>
                decoration(take.taken, take.remaining, take.fullMs, take.nextMs),
            })
        : (key: string) =>
            Effect.matchEffect(store.fixedWindow(key, windowMs), {
              onFailure: onStoreError,
              onSuccess: ({ count, resetMs }: WindowCount) =>
                decoration(count <= max, max - count, resetMs, resetMs),
            });

    const keyOf = options.key;
    return Middleware.decorating((request) => {
      if (exclude.size > 0 && exclude.has(requestPath(request))) return undefined;
      if (keyOf === undefined) {
        return counted(clientKey(request));
      }
      // The key function's failures are answered here: this middleware itself never fails.
      return Effect.matchCauseEffect(
        fromUserCode(() => keyOf(request)),
        {
          onFailure: (cause) =>
            Effect.map(causeToResponse(cause), (response) => ({ answer: response })),
          onSuccess: (key) => counted(String(key)),
        },
      );
    });
  });
