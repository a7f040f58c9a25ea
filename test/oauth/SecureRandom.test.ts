import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import { randomToken, randomTokens, SecureRandom } from "../../src/crypto/SecureRandom.js";

describe("SecureRandom", () => {
  it.effect("node's CSPRNG through a pool: every draw differs, across many refills", () =>
    Effect.gen(function* () {
      const random = yield* SecureRandom;
      const seen = new Set<string>();
      // 3 000 draws of 12 and 32 bytes: several refills of the 8 KiB pool.
      for (let i = 0; i < 1_500; i++) {
        for (const length of [12, 32]) {
          const bytes = yield* random.bytes(length);
          expect(bytes).toBeInstanceOf(Uint8Array);
          expect(bytes.length).toBe(length);
          seen.add(Buffer.from(bytes).toString("hex"));
        }
      }
      expect(seen.size).toBe(3_000);
      // Large requests draw their own bytes.
      const big = yield* random.bytes(4_096);
      expect(big.length).toBe(4_096);
      expect(new Set(big).size).toBeGreaterThan(200);
    }),
  );

  it.effect("the bytes handed out do not change afterwards (the pool is not shared)", () =>
    Effect.gen(function* () {
      const random = yield* SecureRandom;
      const first = yield* random.bytes(32);
      const copy = Uint8Array.from(first);
      for (let i = 0; i < 600; i++) yield* random.bytes(32);
      expect(first).toEqual(copy);
    }),
  );

  it.effect("randomTokens: independent base64url tokens from one draw", () =>
    Effect.gen(function* () {
      const tokens = yield* randomTokens(3);
      expect(tokens).toHaveLength(3);
      for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(new Set(tokens).size).toBe(3);
      expect(yield* randomToken(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    }),
  );

  it.effect("randomTokens equals successive randomToken calls on the test source", () =>
    Effect.gen(function* () {
      const together = yield* randomTokens(3).pipe(Effect.provide(SecureRandom.layerTest("same")));
      const apart = yield* Effect.all([randomToken(), randomToken(), randomToken()]).pipe(
        Effect.provide(SecureRandom.layerTest("same")),
      );
      expect(together).toEqual(apart);
    }),
  );
});
