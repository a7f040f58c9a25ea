// The sealed-cookie session store: the session contract through the real routes, then what is
// its own: the sealed value reveals nothing, its secret, its size limit.
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import { CookieSessionStore, SessionStore, SessionTooLarge } from "../../src/session/index.js";
import { sessionStoreContract } from "./support/sessionContract.js";

const SECRET = Redacted.make("session-secret-0123456789-abcdefghijklmnop");

sessionStoreContract("CookieSessionStore", {
  layer: () => CookieSessionStore.layer({ secret: SECRET }),
  serverSide: false,
});

const storeOf = (options: CookieSessionStore.CookieSessionStoreOptions) =>
  Effect.map(Layer.build(CookieSessionStore.layer(options)), Context.get(SessionStore));

describe("CookieSessionStore", () => {
  const record = {
    data: { id: "alice", email: "alice@example.com" },
    userId: "alice",
    createdAt: 1_700_000_000_000,
    touchedAt: 1_700_000_000_000,
  };

  it.scoped(
    "the cookie is the sealed session: it reveals nothing, and another secret opens nothing",
    () =>
      Effect.gen(function* () {
        const store = yield* storeOf({ secret: SECRET });
        const value = yield* store.create(record, record.createdAt + 1_000);
        expect(value).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
        const bytes = Buffer.from(value.slice(3), "base64url").toString("latin1");
        for (const secret of ["alice", "example.com", "1700000000000"]) {
          expect(value).not.toContain(secret);
          expect(bytes).not.toContain(secret);
        }
        expect(yield* store.load(value)).toEqual(Option.some(record));
        const other = yield* storeOf({ secret: `${Redacted.value(SECRET)}-other` });
        expect(yield* other.load(value)).toEqual(Option.none());
      }),
  );

  it.scoped("a secret shorter than 32 characters fails the start", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(storeOf({ secret: "short" }));
      expect(Exit.isFailure(exit)).toBe(true);
      expect(String(exit)).toContain("at least 32 characters");
    }),
  );

  it.scoped("without a secret: a random per-process key and one warning", () =>
    Effect.gen(function* () {
      const lines: Array<string> = [];
      const capture = Logger.replace(
        Logger.defaultLogger,
        Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${String(message)}`)),
      );
      const store = Context.get(
        yield* Layer.build(CookieSessionStore.layer().pipe(Layer.provide(capture))),
        SessionStore,
      );
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^WARN CookieSessionStore: no secret configured/);
      const value = yield* store.create(record, record.createdAt + 1_000);
      expect(yield* store.load(value)).toEqual(Option.some(record));
    }),
  );

  it.scoped(
    "opened cookies are remembered up to cacheSize; 0 remembers none; a bad size fails the start",
    () =>
      Effect.gen(function* () {
        for (const cacheSize of [0, 1, 10_000]) {
          const store = yield* storeOf({ secret: SECRET, cacheSize });
          const alice = yield* store.create(record, record.createdAt + 1_000);
          const bob = yield* store.create({ ...record, userId: "bob" }, record.createdAt + 1_000);
          for (let round = 0; round < 3; round++) {
            expect(yield* store.load(alice)).toEqual(Option.some(record));
            expect(yield* store.load(bob)).toEqual(Option.some({ ...record, userId: "bob" }));
          }
          // A remembered cookie is still refused once its user signed out everywhere.
          yield* store.destroyAllFor("alice");
          expect(yield* store.load(alice)).toEqual(Option.none());
          expect(Option.isSome(yield* store.load(bob))).toBe(true);
        }
        const exit = yield* Effect.exit(storeOf({ secret: SECRET, cacheSize: -1 }));
        expect(String(exit)).toContain("cacheSize");
      }),
  );

  it.scoped(
    "a session too large for a cookie is refused with SessionTooLarge (check 47), not a defect",
    () =>
      Effect.gen(function* () {
        const store = yield* storeOf({ secret: SECRET });
        const exit = yield* Effect.exit(
          store.create({ ...record, data: { blob: "x".repeat(5_000) } }, record.createdAt + 1),
        );
        expect(Exit.isFailure(exit) && exit.cause._tag).toBe("Fail");
        const error = yield* Effect.flip(
          store.create({ ...record, data: { blob: "x".repeat(5_000) } }, record.createdAt + 1),
        );
        expect(error).toBeInstanceOf(SessionTooLarge);
        expect(error).toMatchObject({ code: "session_too_large", limit: 3_800 });
      }),
  );
});
