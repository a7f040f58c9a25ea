import * as Respondable from "@effect/platform/HttpServerRespondable";
import * as Context from "effect/Context";
import * as Data from "effect/Data";
import * as Effect from "effect/Effect";
import { codedFailureResponse } from "../http/CodedFailure.js";

/**
 * A store could not be reached or answered wrongly (Redis down or too slow): the rate-limit
 * middleware then fails open or closed, as configured.
 *
 * @since 0.1.0
 * @category middleware
 */
export class RateLimitStoreError extends Data.TaggedError("RateLimitStoreError")<{
  readonly message: string;
  readonly cause?: unknown;
}> {
  /** The HTTP status a route that lets it escape answers with. */
  get httpStatus(): number {
    return 503;
  }
  /** The stable `error` code of the response body. */
  get code(): string {
    return "rate_limit_store_unavailable";
  }
  /** The public message of the response body (nothing of `message` or `cause`). */
  get publicMessage(): string {
    return "Service Unavailable";
  }
  /** Its status and body (the standard shape plus `error`), on any `@effect/platform` server. */
  [Respondable.symbol]() {
    return Effect.succeed(codedFailureResponse(this));
  }
}

/**
 * A request counted in its key's fixed window.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface WindowCount {
  /** Requests of the key in the current window, this one included (refused ones count too). */
  readonly count: number;
  /** Milliseconds until the window ends and the count starts over. */
  readonly resetMs: number;
}

/**
 * A token asked of a key's bucket.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface BucketTake {
  /** Whether a token was taken (false: the bucket was empty, nothing changed). */
  readonly taken: boolean;
  /** Tokens left in the bucket. */
  readonly remaining: number;
  /** Milliseconds until the next token comes back. */
  readonly nextMs: number;
  /** Milliseconds until the bucket is full again. */
  readonly fullMs: number;
}

/**
 * Where the rate-limit middleware keeps its counts: `MemoryRateLimitStore.layer` (one process)
 * or `RedisRateLimitStore.layer(...)` (shared by every instance). Both pass the same contract
 * tests; each operation is atomic for its key.
 *
 * @since 0.1.0
 * @category middleware
 */
export class RateLimitStore extends Context.Tag("effect-strata/middleware/RateLimitStore")<
  RateLimitStore,
  {
    /**
     * Counts a request of `key` in a fixed window: the window opens at the key's first request
     * and lasts `windowMs`; the first request after it opens the next one.
     */
    readonly fixedWindow: (
      key: string,
      windowMs: number,
    ) => Effect.Effect<WindowCount, RateLimitStoreError>;
    /**
     * Takes a token from `key`'s bucket: `capacity` tokens, one back every `refillMs`, full
     * when first used.
     */
    readonly tokenBucket: (
      key: string,
      capacity: number,
      refillMs: number,
    ) => Effect.Effect<BucketTake, RateLimitStoreError>;
  }
>() {}
