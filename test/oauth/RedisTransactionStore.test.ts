// The Redis transaction store against the real redis-server of the test run (see
// test/support/globalSetup.ts): the store itself, then the built-in routes on it (Effect face
// and classic face), two app instances sharing one Redis, and Redis down.
import { randomUUID } from "node:crypto";
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import { describe, expect, it, layer } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import { Redis } from "ioredis";
import { afterAll, inject } from "vitest";
import { Module, type StrataApp } from "../../src/index.js";
import {
  OAuth,
  OAuthModule,
  OAuthRoutes,
  type OAuthTransaction,
  RedisTransactionStore,
  randomToken,
  TRANSACTION_TTL,
  TransactionStore,
  TransactionStoreError,
} from "../../src/oauth/index.js";
import type { RedisTransactionStoreOptions } from "../../src/oauth/RedisTransactionStore.js";
import { request, serveTest } from "../../src/testing/index.js";
import { freePort } from "../support/freePort.js";
import { capturingLogger, startedApps } from "../support/started.js";
import { ACCESS_TOKEN, credentials } from "./fixtures.js";
import { form, mockNetwork } from "./support/network.js";
import { mockLogin, tokenRequests } from "./support/providerNetwork.js";
import { callback, start, testConfig } from "./support/server.js";

const net = mockNetwork();

/** The shared Redis of the run (see test/support/globalSetup.ts). */
const sharedRedisPort = (): number => {
  const redis = inject("redis");
  if ("error" in redis) throw new Error(`No Redis for the Redis tests: ${redis.error}`);
  return redis.port;
};

/** A key prefix of its own per test, so that tests never see each other's entries. */
const freshPrefix = () => `test:oauth:${randomUUID()}:`;

/** A client that looks at Redis behind the store's back (no key prefix). */
let raw: Redis | undefined;
const rawRedis = (): Redis => {
  raw ??= new Redis({ host: "127.0.0.1", port: sharedRedisPort(), lazyConnect: false });
  return raw;
};
afterAll(() => raw?.disconnect());

/** A store built in the test's scope (its client closed with it). */
const storeAt = (options: RedisTransactionStoreOptions) =>
  Effect.map(
    Layer.build(RedisTransactionStore.layer({ host: "127.0.0.1", ...options })),
    Context.get(TransactionStore),
  );

const transaction = (expiry: number, state = "state-1"): OAuthTransaction => ({
  provider: "google",
  state,
  codeVerifier: "verifier-1",
  nonce: "nonce-1",
  redirects: { success: "/home" },
  expiry,
});

const ID = /^[A-Za-z0-9_-]{43}$/;

/** The built-in routes' answer to a missing, unknown or replayed transaction. */
const INVALID_STATE = { statusCode: 401, message: "Invalid state", error: "invalid_state" };

describe("RedisTransactionStore", () => {
  it.scopedLive(
    "save then take: the cookie carries only an id; Redis holds the JSON until taken",
    () =>
      Effect.gen(function* () {
        const keyPrefix = freshPrefix();
        const store = yield* storeAt({ port: sharedRedisPort(), keyPrefix });
        const tx = transaction(Date.now() + Duration.toMillis(TRANSACTION_TTL));
        const id = yield* store.save(tx);
        expect(id).toMatch(ID);
        for (const secret of ["state-1", "verifier-1", "nonce-1", "google", "/home"]) {
          expect(id).not.toContain(secret);
        }
        const stored = yield* Effect.promise(() => rawRedis().get(`${keyPrefix}${id}`));
        expect(JSON.parse(stored ?? "null")).toEqual(tx);
        // The entry lives as long as the transaction has left, not a fixed time.
        const ttl = yield* Effect.promise(() => rawRedis().pttl(`${keyPrefix}${id}`));
        expect(ttl).toBeGreaterThan(Duration.toMillis(TRANSACTION_TTL) - 5_000);
        expect(ttl).toBeLessThanOrEqual(Duration.toMillis(TRANSACTION_TTL));

        expect(yield* store.take(id)).toEqual(Option.some(tx));
        expect(yield* Effect.promise(() => rawRedis().exists(`${keyPrefix}${id}`))).toBe(0);
        expect(yield* store.take(id)).toEqual(Option.none());
        // Every save draws a fresh id.
        expect(yield* store.save(tx)).not.toBe(id);
      }),
  );

  it.scopedLive("take is single-use across two store instances (two apps) sharing one Redis", () =>
    Effect.gen(function* () {
      const options = { port: sharedRedisPort(), keyPrefix: freshPrefix() };
      const first = yield* storeAt(options);
      const second = yield* storeAt(options);
      const tx = transaction(Date.now() + 60_000);

      const id = yield* first.save(tx);
      expect(yield* second.take(id)).toEqual(Option.some(tx));
      expect(yield* first.take(id)).toEqual(Option.none());
      expect(yield* second.take(id)).toEqual(Option.none());

      // Racing callbacks on both instances: exactly one gets the transaction.
      for (let round = 0; round < 10; round++) {
        const raced = yield* first.save(tx);
        const takes = yield* Effect.all([first.take(raced), second.take(raced)], {
          concurrency: "unbounded",
        });
        expect(takes.filter(Option.isSome)).toHaveLength(1);
      }

      // Another key prefix is another store: it never sees these entries.
      const other = yield* storeAt({ ...options, keyPrefix: freshPrefix() });
      expect(yield* other.take(yield* first.save(tx))).toEqual(Option.none());
    }),
  );

  it.scopedLive("an entry is gone from Redis once its transaction has expired", () =>
    Effect.gen(function* () {
      const keyPrefix = freshPrefix();
      const store = yield* storeAt({ port: sharedRedisPort(), keyPrefix });
      const soon = yield* store.save(transaction(Date.now() + 150));
      const ttl = yield* Effect.promise(() => rawRedis().pttl(`${keyPrefix}${soon}`));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(150);
      // Already expired: kept for the least Redis allows (1 ms), never forever.
      const past = yield* store.save(transaction(Date.now() - 60_000));
      const kept = yield* store.save(transaction(Date.now() + 60_000));
      yield* Effect.sleep("300 millis");
      expect(yield* store.take(soon)).toEqual(Option.none());
      expect(yield* store.take(past)).toEqual(Option.none());
      expect(Option.isSome(yield* store.take(kept))).toBe(true);
    }),
  );

  it.scopedLive("unknown, tampered, malformed and corrupt values give None", () =>
    Effect.gen(function* () {
      const keyPrefix = freshPrefix();
      const store = yield* storeAt({ port: sharedRedisPort(), keyPrefix });
      const tx = transaction(Date.now() + 60_000);
      const id = yield* store.save(tx);
      const last = id.at(-1) === "A" ? "B" : "A";
      expect(yield* store.take(`${id.slice(0, -1)}${last}`)).toEqual(Option.none());
      expect(yield* store.take(`${id}A`)).toEqual(Option.none());
      expect(yield* store.take(id.slice(0, -1))).toEqual(Option.none());
      expect(yield* store.take(yield* randomToken(32))).toEqual(Option.none());
      // None of these consumed the real entry.
      expect(yield* store.take(id)).toEqual(Option.some(tx));

      // A value that is not an id is never looked up, even when Redis has such a key.
      for (const name of ["not-an-id", `${"a".repeat(42)}=`, `${"*".repeat(43)}`]) {
        yield* Effect.promise(() => rawRedis().set(`${keyPrefix}${name}`, JSON.stringify(tx)));
        expect(yield* store.take(name)).toEqual(Option.none());
        expect(yield* Effect.promise(() => rawRedis().exists(`${keyPrefix}${name}`))).toBe(1);
      }

      // An entry that is not a transaction: None, and it is consumed all the same.
      const corrupt = yield* randomToken(32);
      for (const value of ["not json", JSON.stringify({ ...tx, expiry: "soon" }), "{}"]) {
        yield* Effect.promise(() => rawRedis().set(`${keyPrefix}${corrupt}`, value));
        expect(yield* store.take(corrupt)).toEqual(Option.none());
        expect(yield* Effect.promise(() => rawRedis().exists(`${keyPrefix}${corrupt}`))).toBe(0);
      }
    }),
  );

  it.scopedLive(
    "Redis down: save and take fail fast with TransactionStoreError; bad values never reach it",
    () =>
      Effect.gen(function* () {
        const port = yield* Effect.promise(freePort);
        const built = Date.now();
        const store = yield* storeAt({ port, connectTimeout: 1_000 });
        expect(Date.now() - built).toBeLessThan(1_500);

        const startedAt = Date.now();
        // Effect.flip: a success here fails the test.
        const errors = [
          yield* Effect.flip(store.save(transaction(Date.now() + 60_000))),
          yield* Effect.flip(store.take(yield* randomToken(32))),
        ];
        expect(Date.now() - startedAt).toBeLessThan(1_000);
        for (const error of errors) {
          expect(error).toBeInstanceOf(TransactionStoreError);
          expect(error.message).toMatch(/^Redis transaction store: (SET|GETDEL) failed$/);
        }
        // Values that cannot be an id are refused before any Redis command: None, not a failure.
        for (const value of ["", "v1.sealed-cookie-value", "x".repeat(44), `${"a".repeat(42)}.`]) {
          expect(yield* store.take(value)).toEqual(Option.none());
        }
      }),
  );
});

/** The built-in routes (Effect face) on a Redis store, with the live providers mocked at the network. */
const effectFacePrefix = freshPrefix();
const effectFace = OAuthRoutes.layer().pipe(
  Layer.provide(
    Layer.mergeAll(
      OAuth.layer(testConfig()),
      Layer.suspend(() =>
        RedisTransactionStore.layer({
          host: "127.0.0.1",
          port: sharedRedisPort(),
          keyPrefix: effectFacePrefix,
        }),
      ),
    ),
  ),
  Layer.provide(FetchHttpClient.layer),
);

describe("built-in routes on the Redis store", () => {
  layer(serveTest(effectFace), { excludeTestServices: true })("Effect face", (it) => {
    for (const provider of ["google", "github"] as const) {
      it.effect(`${provider}: authorize -> callback through Redis, then a replay is refused`, () =>
        Effect.gen(function* () {
          const flow = yield* start(provider);
          const id = flow.cookie.slice("strata_oauth=".length);
          expect(id).toMatch(ID);
          const stored = yield* Effect.promise(() => rawRedis().get(`${effectFacePrefix}${id}`));
          const tx = JSON.parse(stored ?? "null") as OAuthTransaction;
          expect(tx).toMatchObject({ provider, state: flow.state });

          mockLogin(net, provider);
          const answer = yield* callback(provider, `?code=c&state=${flow.state}`, flow.cookie);
          expect(answer.status).toBe(200);
          expect((answer.json as { accessToken: string }).accessToken).toBe(ACCESS_TOKEN);
          expect(answer.setCookie).toContain("strata_oauth=; Max-Age=0");
          // The verifier went through Redis to the token request (PKCE providers).
          expect(form(tokenRequests(net)[0]).code_verifier).toBe(tx.codeVerifier);
          expect(yield* Effect.promise(() => rawRedis().exists(`${effectFacePrefix}${id}`))).toBe(
            0,
          );

          const replay = yield* callback(provider, `?code=c&state=${flow.state}`, flow.cookie);
          expect(replay.status).toBe(401);
          expect(replay.json).toEqual(INVALID_STATE);
          expect(tokenRequests(net)).toHaveLength(1);
        }),
      );
    }
  });
});

describe("OAuthModule.forRoot with transactionStore: { redis }", () => {
  const startApp = startedApps();
  const appWith = async (redis: RedisTransactionStoreOptions) => {
    @Module({
      imports: [
        OAuthModule.forRoot({
          providers: { github: credentials("github"), google: credentials("google") },
          transactionStore: { redis: { host: "127.0.0.1", ...redis } },
          timeout: "400 millis",
        }),
      ],
    })
    class AppModule {}
    const { logger, lines } = capturingLogger();
    return { app: await startApp(AppModule, { logger }), lines };
  };
  const begin = async (app: StrataApp) => {
    const started = await request(app, "GET", "/auth/github");
    expect(started.status).toBe(302);
    const cookie = (started.headers.getSetCookie()[0] ?? "").split(";")[0];
    const state = new URL(started.headers.get("location") ?? "").searchParams.get("state");
    return { cookie, state };
  };

  it("a login started on one instance completes on another, once; no sealing key needed", async () => {
    const keyPrefix = freshPrefix();
    const first = await appWith({ port: sharedRedisPort(), keyPrefix });
    const second = await appWith({ port: sharedRedisPort(), keyPrefix });
    const { cookie, state } = await begin(first.app);
    expect(cookie).toMatch(/^strata_oauth=[A-Za-z0-9_-]{43}$/);

    mockLogin(net, "github");
    const path = `/auth/github/callback?code=c&state=${state}`;
    const done = await request(second.app, "GET", path, { headers: { cookie } });
    expect(done.status).toBe(200);
    expect((done.body as { accessToken: string }).accessToken).toBe(ACCESS_TOKEN);

    const replay = await request(first.app, "GET", path, { headers: { cookie } });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual(INVALID_STATE);
    expect(tokenRequests(net)).toHaveLength(1);
    for (const { lines } of [first, second]) {
      expect(lines.filter((line) => /sealing key|not reachable/i.test(line.text))).toEqual([]);
    }
  });

  it("Redis down: the app starts; authorize and callback answer 503 in the standard shape, nothing leaked", async () => {
    const port = await freePort();
    const { app, lines } = await appWith({ port, connectTimeout: 500 });
    expect(lines.some((line) => line.message.includes("Redis is not reachable yet"))).toBe(true);

    const started = await request(app, "GET", "/auth/github");
    const id = await Effect.runPromise(randomToken(32));
    const callbackAnswer = await request(app, "GET", "/auth/github/callback?code=c&state=s", {
      headers: { cookie: `strata_oauth=${id}` },
    });
    for (const answer of [started, callbackAnswer]) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({
        statusCode: 503,
        message: "Service Unavailable",
        error: "transaction_store_unavailable",
      });
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.headers.get("location")).toBeNull();
      const seen = `${answer.text} ${[...answer.headers].join(" ")}`;
      for (const leak of [
        "Redis",
        "GETDEL",
        "SET",
        "ECONNREFUSED",
        "enableOfflineQueue",
        String(port),
      ]) {
        expect(seen).not.toContain(leak);
      }
    }
    // The callback clears the transaction cookie on this outcome too.
    expect(callbackAnswer.headers.get("set-cookie")).toMatch(/^strata_oauth=; Max-Age=0;/);
    expect(tokenRequests(net)).toEqual([]);
    // The operator sees the cause in the log.
    expect(lines.some((line) => line.text.includes("TransactionStoreError"))).toBe(true);

    // A cookie that cannot be an id needs no Redis: the usual 401.
    const forged = await request(app, "GET", "/auth/github/callback?code=c&state=s", {
      headers: { cookie: "strata_oauth=forged" },
    });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual(INVALID_STATE);
  });
});
