/**
 * Reads of string keys gathered across requests: every read asked for during one turn of the
 * event loop goes to Redis as one `MGET` when the turn ends (`setImmediate`), so concurrent
 * requests share one write and one read on the connection instead of a round trip each.
 *
 * ioredis's own auto-pipelining flushes on `process.nextTick`, that is after each socket
 * callback: the requests that one poll of the event loop delivers each still cost their own
 * write. Measured: see `bench/README.md` (strata-classic-session-redis).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import type { Redis } from "ioredis";

/** The most keys one `MGET` carries; a larger turn sends several. */
const MAX_BATCH = 512;

/**
 * Reads `key`'s string value (`null` when absent) in the batch of the current turn; fails with
 * `onError` of what Redis or the connection answered, for every read of that batch.
 *
 * @since 0.1.0
 * @category redis
 */
export type BatchedGet = <E>(
  key: string,
  onError: (cause: unknown) => E,
) => Effect.Effect<string | null, E>;

interface Waiting {
  readonly key: string;
  readonly resume: (answer: Effect.Effect<string | null, unknown>) => void;
  readonly onError: (cause: unknown) => unknown;
}

const send = (redis: Redis, batch: ReadonlyArray<Waiting>): void => {
  redis.mget(batch.map((waiting) => waiting.key)).then(
    (values) => {
      for (let i = 0; i < batch.length; i++) batch[i].resume(Effect.succeed(values[i] ?? null));
    },
    (cause: unknown) => {
      for (const waiting of batch) waiting.resume(Effect.fail(waiting.onError(cause)));
    },
  );
};

/**
 * A {@link BatchedGet} on `redis` (its `keyPrefix` applies, as to `get`). A read whose fiber is
 * interrupted while it waits still goes out; its answer is dropped.
 *
 * @since 0.1.0
 * @category redis
 */
export const makeBatchedGet = (redis: Redis): BatchedGet => {
  let pending: Array<Waiting> = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    for (let at = 0; at < batch.length; at += MAX_BATCH)
      send(redis, batch.slice(at, at + MAX_BATCH));
  };
  return <E>(key: string, onError: (cause: unknown) => E) =>
    Effect.async<string | null, E>((resume) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ key, resume: resume as Waiting["resume"], onError });
    });
};
