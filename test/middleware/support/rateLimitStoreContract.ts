import { randomUUID } from "node:crypto";
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type * as Scope from "effect/Scope";
import * as TestClock from "effect/TestClock";
import { type StartupError } from "../../../src/index.js";
import { RateLimitStore } from "../../../src/middleware/RateLimitStore.js";

/** A store under the contract, and how time passes for it. */
export interface StoreUnderTest {
  readonly layer: Layer.Layer<RateLimitStore, StartupError>;
  /**
   * `test`: Effect's `TestClock`, moved by exactly the time asked (a store on Effect's `Clock`);
   * `real`: real time slept (a store on another clock, such as Redis's).
   */
  readonly clock: "test" | "real";
}

/** The window of the contract: short, since a store on real time has to sleep through it. */
const WINDOW = 600;

/**
 * The contract every `RateLimitStore` passes, so the memory and Redis stores count alike:
 * a fixed window opened by a key's first request and never extended, refused requests counted,
 * a new window once it has ended, keys apart, atomic counts, and a token bucket.
 */
export const rateLimitStoreContract = (name: string, store: StoreUnderTest) =>
  describe(`${name}: the RateLimitStore contract`, () => {
    const real = store.clock === "real";
    // Real time: durations the store reports may be a little shorter than the test's arithmetic.
    const slack = real ? 150 : 0;
    const test: (name: string, self: () => Effect.Effect<void, unknown, Scope.Scope>) => void = real
      ? it.scopedLive
      : it.scoped;
    const advance = (ms: number) =>
      real ? Effect.promise(() => new Promise((r) => setTimeout(r, ms))) : TestClock.adjust(ms);
    const withStore = Effect.map(Layer.build(store.layer), (context) =>
      Context.get(context, RateLimitStore),
    );
    /** A key no other test (or earlier run on the same Redis) has used. */
    const fresh = () => `contract:${randomUUID()}`;
    const expectAbout = (actual: number, expected: number) => {
      expect(actual).toBeLessThanOrEqual(expected);
      expect(actual).toBeGreaterThanOrEqual(expected - slack);
    };

    test("fixedWindow counts every request of a window, refused ones too, and never extends it", () =>
      Effect.gen(function* () {
        const rateLimits = yield* withStore;
        const key = fresh();
        const first = yield* rateLimits.fixedWindow(key, WINDOW);
        expect(first.count).toBe(1);
        expectAbout(first.resetMs, WINDOW);
        yield* advance(200);
        const second = yield* rateLimits.fixedWindow(key, WINDOW);
        expect(second.count).toBe(2);
        // The end of the window is where the first request put it.
        expectAbout(second.resetMs, WINDOW - 200);
        for (let count = 3; count <= 6; count++) {
          expect((yield* rateLimits.fixedWindow(key, WINDOW)).count).toBe(count);
        }
        const other = yield* rateLimits.fixedWindow(fresh(), WINDOW);
        expect(other.count).toBe(1);
        expectAbout(other.resetMs, WINDOW);
      }));

    test("fixedWindow opens a new window, counted from its own first request, once one has ended", () =>
      Effect.gen(function* () {
        const rateLimits = yield* withStore;
        const key = fresh();
        yield* rateLimits.fixedWindow(key, WINDOW);
        const last = yield* rateLimits.fixedWindow(key, WINDOW);
        expect(last.count).toBe(2);
        yield* advance(last.resetMs + (real ? 30 : 0));
        const next = yield* rateLimits.fixedWindow(key, WINDOW);
        expect(next.count).toBe(1);
        expectAbout(next.resetMs, WINDOW);
      }));

    test("fixedWindow counts concurrent requests atomically", () =>
      Effect.gen(function* () {
        const rateLimits = yield* withStore;
        const key = fresh();
        const counts = yield* Effect.all(
          Array.from({ length: 25 }, () => rateLimits.fixedWindow(key, WINDOW)),
          { concurrency: "unbounded" },
        );
        expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 25 }, (_, i) => i + 1),
        );
      }));

    test("tokenBucket starts full, refuses when empty, and gives a token back every refillMs", () =>
      Effect.gen(function* () {
        const rateLimits = yield* withStore;
        const key = fresh();
        const refillMs = WINDOW / 2;
        const first = yield* rateLimits.tokenBucket(key, 2, refillMs);
        expect(first).toMatchObject({ taken: true, remaining: 1 });
        expectAbout(first.nextMs, refillMs);
        expectAbout(first.fullMs, refillMs);
        const second = yield* rateLimits.tokenBucket(key, 2, refillMs);
        expect(second).toMatchObject({ taken: true, remaining: 0 });
        expectAbout(second.fullMs, 2 * refillMs);
        yield* advance(100);
        const refused = yield* rateLimits.tokenBucket(key, 2, refillMs);
        expect(refused).toMatchObject({ taken: false, remaining: 0 });
        expectAbout(refused.nextMs, refillMs - 100);
        yield* advance(refused.nextMs + (real ? 30 : 0));
        const refilled = yield* rateLimits.tokenBucket(key, 2, refillMs);
        expect(refilled).toMatchObject({ taken: true, remaining: 0 });
        expect((yield* rateLimits.tokenBucket(fresh(), 2, refillMs)).remaining).toBe(1);
      }));
  });
