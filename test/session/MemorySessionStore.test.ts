// The memory session store: the session contract through the real routes, and its capacity.
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as TestClock from "effect/TestClock";
import { MemorySessionStore, SessionStore } from "../../src/session/index.js";
import { sessionStoreContract } from "./support/sessionContract.js";

sessionStoreContract("MemorySessionStore", {
  layer: () => MemorySessionStore.layer(),
  serverSide: true,
});

describe("MemorySessionStore", () => {
  const record = { data: { id: "a" }, userId: "a", createdAt: 0, touchedAt: 0 };

  it.scoped("full of live sessions, it refuses new ones (503); expired ones make room", () =>
    Effect.gen(function* () {
      const store = Context.get(
        yield* Layer.build(MemorySessionStore.layer({ maxEntries: 2 })),
        SessionStore,
      );
      const first = yield* store.create(record, 1_000);
      const second = yield* store.create(record, 2_000);
      const refused = yield* Effect.flip(store.create(record, 2_000));
      expect(refused._tag).toBe("SessionStoreError");
      expect(refused.message).not.toContain(first);
      yield* TestClock.adjust(1_000);
      const third = yield* store.create(record, 3_000);
      expect(Option.isNone(yield* store.load(first))).toBe(true);
      expect(Option.isSome(yield* store.load(second))).toBe(true);
      expect(Option.isSome(yield* store.load(third))).toBe(true);
    }),
  );
});
