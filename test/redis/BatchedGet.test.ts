// Reads gathered per event-loop turn into one MGET (src/redis/BatchedGet.ts), against the real
// redis-server of the test run (see test/support/globalSetup.ts). The client's `mget` is spied
// on to count the commands; it still goes to Redis, which answers.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "@effect/vitest";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import { Redis } from "ioredis";
import { afterAll, inject, vi } from "vitest";
import { makeBatchedGet } from "../../src/redis/BatchedGet.js";
import { freePort } from "../support/freePort.js";

/** The shared Redis of the run. */
const sharedRedisPort = (): number => {
  const redis = inject("redis");
  if ("error" in redis) throw new Error(`No Redis for the Redis tests: ${redis.error}`);
  return redis.port;
};

const clients: Array<Redis> = [];
afterAll(() => {
  for (const client of clients) client.disconnect();
});

/** A client with a key prefix of its own, and its `mget` spied on (still calling Redis). */
const prefixedClient = () => {
  const keyPrefix = `test:batched:${randomUUID()}:`;
  const redis = new Redis({ host: "127.0.0.1", port: sharedRedisPort(), keyPrefix });
  clients.push(redis);
  const mget = vi.spyOn(redis, "mget");
  /** The keys each MGET carried (without the prefix, as the client was asked). */
  const batches = () => mget.mock.calls.map(([keys]) => keys as unknown as Array<string>);
  return { redis, keyPrefix, mget, batches };
};

/** Sets `entries` through a client without a prefix, as another program would. */
const seed = (keyPrefix: string, entries: ReadonlyArray<readonly [string, string]>) =>
  Effect.promise(async () => {
    const raw = new Redis({ host: "127.0.0.1", port: sharedRedisPort() });
    try {
      await raw.mset(entries.flatMap(([key, value]) => [`${keyPrefix}${key}`, value]));
    } finally {
      raw.disconnect();
    }
  });

/** A read's failure, naming its key. */
class ReadFailed {
  readonly _tag = "ReadFailed";
  constructor(
    readonly key: string,
    readonly cause: unknown,
  ) {}
}

/** One turn of the event loop: what was asked before it has been flushed once it resolves. */
const nextTurn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)));

describe("makeBatchedGet", () => {
  it.live("reads asked in one turn go out as one MGET; values, null when absent, the prefix", () =>
    Effect.gen(function* () {
      const { redis, keyPrefix, mget, batches } = prefixedClient();
      yield* seed(keyPrefix, [
        ["a", "1"],
        ["b", "2"],
        ["c", "3"],
      ]);
      const get = makeBatchedGet(redis);
      const keys = ["a", "missing-1", "b", "c", "missing-2", "a"];
      const values = yield* Effect.forEach(keys, (key) => get(key, (cause) => cause), {
        concurrency: "unbounded",
      });
      expect(values).toEqual(["1", null, "2", "3", null, "1"]);
      expect(mget).toHaveBeenCalledTimes(1);
      // The client is asked for unprefixed keys; it adds `keyPrefix`, under which they were set.
      expect(batches()).toEqual([keys]);
    }),
  );

  it.live("reads asked in separate turns go out as separate MGETs", () =>
    Effect.gen(function* () {
      const { redis, keyPrefix, batches } = prefixedClient();
      yield* seed(keyPrefix, [
        ["x", "ex"],
        ["y", "why"],
      ]);
      const get = makeBatchedGet(redis);
      const first = yield* Effect.fork(get("x", (cause) => cause));
      // The fork has asked for its read; the turn ends, sending it, before the next are asked.
      yield* Effect.yieldNow();
      yield* nextTurn;
      const second = yield* Effect.fork(
        Effect.all([get("y", String), get("x", String)], { concurrency: "unbounded" }),
      );
      expect(yield* Fiber.join(first)).toBe("ex");
      expect(yield* Fiber.join(second)).toEqual(["why", "ex"]);
      expect(batches()).toEqual([["x"], ["y", "x"]]);
    }),
  );

  it.live("1,100 reads in one turn: three MGETs of at most 512 keys, every read answered", () =>
    Effect.gen(function* () {
      const { redis, keyPrefix, batches } = prefixedClient();
      const count = 1_100;
      // Every third key is absent.
      const present = Array.from({ length: count }, (_, i) => i).filter((i) => i % 3 !== 0);
      yield* seed(
        keyPrefix,
        present.map((i) => [`k${i}`, `v${i}`]),
      );
      const get = makeBatchedGet(redis);
      const values = yield* Effect.forEach(
        Array.from({ length: count }, (_, i) => i),
        (i) => get(`k${i}`, (cause) => cause),
        { concurrency: "unbounded" },
      );
      expect(values).toEqual(
        Array.from({ length: count }, (_, i) => (i % 3 === 0 ? null : `v${i}`)),
      );
      expect(batches().map((keys) => keys.length)).toEqual([512, 512, 76]);
      expect(batches().flat()).toEqual(Array.from({ length: count }, (_, i) => `k${i}`));
    }),
  );

  it.live("Redis unreachable: every read of the batch fails with its own onError value", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(() => freePort());
      const redis = new Redis({
        host: "127.0.0.1",
        port,
        lazyConnect: true,
        enableOfflineQueue: false,
        retryStrategy: () => null,
      });
      redis.on("error", () => undefined);
      clients.push(redis);
      const mget = vi.spyOn(redis, "mget");
      const get = makeBatchedGet(redis);
      const keys = ["one", "two", "three"];
      const results = yield* Effect.forEach(
        keys,
        (key) => Effect.either(get(key, (cause) => new ReadFailed(key, cause))),
        { concurrency: "unbounded" },
      );
      expect(mget).toHaveBeenCalledTimes(1);
      const failures = results.map((result) => {
        if (Either.isRight(result)) throw new Error(`read answered ${result.right}`);
        return result.left;
      });
      expect(failures.map((failure) => failure.key)).toEqual(keys);
      for (const failure of failures) {
        expect(failure).toBeInstanceOf(ReadFailed);
        expect(failure.cause).toBeInstanceOf(Error);
        // The same cause for each: the batch's one MGET failed.
        expect(failure.cause).toBe(failures[0].cause);
      }
    }),
  );

  it.live(
    "a waiter interrupted before the flush: its key still goes out, the others answered",
    () =>
      Effect.gen(function* () {
        const { redis, keyPrefix, batches } = prefixedClient();
        yield* seed(keyPrefix, [
          ["p", "pea"],
          ["q", "queue"],
          ["r", "are"],
        ]);
        const get = makeBatchedGet(redis);
        const p = yield* Effect.fork(get("p", String));
        const q = yield* Effect.fork(get("q", String));
        const r = yield* Effect.fork(get("r", String));
        // All three wait for the flush when `q` is interrupted.
        yield* Effect.yieldNow();
        const interrupted = yield* Fiber.interrupt(q);
        expect(Exit.isInterrupted(interrupted)).toBe(true);
        expect(yield* Fiber.join(p)).toBe("pea");
        expect(yield* Fiber.join(r)).toBe("are");
        expect(batches()).toEqual([["p", "q", "r"]]);
        // The dropped answer disturbs nothing: the next turn's batch is answered as usual.
        expect(yield* get("q", String)).toBe("queue");
      }),
  );

  it.live("a waiter timed out while its MGET is in flight: the others of the batch answered", () =>
    Effect.gen(function* () {
      const { redis, keyPrefix, mget } = prefixedClient();
      yield* seed(keyPrefix, [
        ["s", "ess"],
        ["t", "tea"],
      ]);
      // Redis's answer arrives 200 ms late.
      const real = Redis.prototype.mget;
      mget.mockImplementation(function (this: Redis, ...args: Array<unknown>) {
        return new Promise((resolve) => setTimeout(resolve, 200)).then(() =>
          Reflect.apply(real, redis, args),
        ) as never;
      });
      const get = makeBatchedGet(redis);
      const [s, t] = yield* Effect.all(
        [Effect.timeout(get("s", String), "20 millis").pipe(Effect.either), get("t", String)],
        { concurrency: "unbounded" },
      );
      expect(Either.isLeft(s) && s.left).toBeInstanceOf(Cause.TimeoutException);
      expect(t).toBe("tea");
      expect(mget).toHaveBeenCalledTimes(1);
    }),
  );
});
