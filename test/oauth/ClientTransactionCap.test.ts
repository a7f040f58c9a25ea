// SECURITY.md check 42 through the real built-in routes over HTTP: one client cannot make
// sign-in unavailable to others. The live transactions (memory, Redis) and the states taken
// (sealed cookie) one client key holds are capped: past `maxPerClient`, that client alone gets
// 429 `too_many_transactions` with `Retry-After`, and the 503 of check 41 is never reached from
// one address. The stores are built small so a test can fill them; clients are told apart by
// `X-Forwarded-For` behind `trustProxy: 1` (the key the rate limiter uses).
import { randomUUID } from "node:crypto";
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import { describe, expect, it, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as TestClock from "effect/TestClock";
import { Redis } from "ioredis";
import { afterAll, inject } from "vitest";
import { Module } from "../../src/index.js";
import {
  OAuth,
  type OAuthConfigError,
  OAuthModule,
  OAuthRoutes,
  RedisTransactionStore,
  TransactionSealer,
  TransactionStore,
} from "../../src/oauth/index.js";
import type { OAuthRoutesOptions } from "../../src/oauth/OAuthRoutes.js";
import { request, serveTest } from "../../src/testing/index.js";
import { startedApps } from "../support/started.js";
import { credentials } from "./fixtures.js";
import { mockNetwork } from "./support/network.js";
import { mockLogin, tokenRequests } from "./support/providerNetwork.js";
import { type Answer, callback, get, KEY, start, testConfig } from "./support/server.js";

const net = mockNetwork();

const TOO_MANY = {
  statusCode: 429,
  message: "Too Many Requests",
  error: "too_many_transactions",
};
const PROVIDER_ERROR = { statusCode: 401, error: "provider_error" };
const MAX_ENTRIES = 10;
const PER_CLIENT = 3;
const T0 = Date.UTC(2026, 0, 1);

/** One client, as its proxy reports it. */
const from = (address: string) => ({ "x-forwarded-for": address });
const ATTACKER = from("203.0.113.7");
const VICTIM = from("198.51.100.9");

/** The built-in routes over `store`, behind one trusted proxy, served on loopback. */
const server = <E>(
  store: Layer.Layer<TransactionStore, E>,
  routes: OAuthRoutesOptions = { trustProxy: 1 },
) =>
  serveTest(
    OAuthRoutes.layer(routes).pipe(
      Layer.provide(Layer.mergeAll(OAuth.layer(testConfig()), store)),
      Layer.provide(FetchHttpClient.layer),
    ),
  );

/** A 429 of this check: standard body, `Retry-After` in (0, 600] s, nothing else leaked. */
const expectTooMany = (answer: Answer, maxWait = 600) => {
  expect(answer.status).toBe(429);
  expect(answer.json).toEqual(TOO_MANY);
  const wait = Number(answer.headers["retry-after"]);
  expect(Number.isInteger(wait)).toBe(true);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(maxWait);
  expect(answer.location).toBeUndefined();
  expect(answer.headers["cache-control"]).toBe("no-store");
  expect(answer.text).not.toMatch(/203\.0\.113|stack|Error:/);
};

/** A refused start: 429 and no transaction cookie. */
const expectRefusedStart = (headers: Record<string, string>) =>
  Effect.gen(function* () {
    const refused = yield* get("/auth/github", headers);
    expectTooMany(refused);
    expect(refused.setCookies).toEqual([]);
  });

/** The attack of the issue: a start, then the provider's `error=` callback with its cookie. */
const startAndDeny = (headers: Record<string, string>) =>
  Effect.gen(function* () {
    const flow = yield* start("github", "", headers);
    const denied = yield* callback(
      "github",
      `?state=${flow.state}&error=access_denied`,
      flow.cookie,
      headers,
    );
    expect(denied.status).toBe(401);
    expect(denied.json).toMatchObject(PROVIDER_ERROR);
  });

/** A whole sign-in of `headers`' client: 302, then 200 with tokens. */
const signIn = (headers: Record<string, string>) =>
  Effect.gen(function* () {
    const flow = yield* start("github", "", headers);
    mockLogin(net, "github");
    const done = yield* callback("github", `?code=c&state=${flow.state}`, flow.cookie, headers);
    expect(done.status).toBe(200);
  });

describe("check 42: one client cannot fill the sealed-cookie store's memory of taken states", () => {
  layer(
    server(
      TransactionStore.layerCookieWith({
        maxEntries: MAX_ENTRIES,
        maxPerClient: PER_CLIENT,
      }).pipe(Layer.provide(TransactionSealer.layer(Redacted.make(KEY)))),
    ),
  )("sealed-cookie store", (it) => {
    it.effect(
      "start + error callback repeated: 429 for that client only (start and callback), never the 503; others sign in; free again after expiry",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(T0);
          // A flow the attacker started before it reached its cap, completed afterwards.
          const late = yield* start("github", "", ATTACKER);
          for (let i = 0; i < PER_CLIENT; i++) yield* startAndDeny(ATTACKER);

          // Far more than the whole store: every one refused for this client, never a 503.
          for (let i = 0; i < 2 * MAX_ENTRIES; i++) yield* expectRefusedStart(ATTACKER);
          mockLogin(net, "github");
          const refused = yield* callback(
            "github",
            `?code=c&state=${late.state}`,
            late.cookie,
            ATTACKER,
          );
          expectTooMany(refused);
          expect(refused.setCookies).toEqual([expect.stringMatching(/^strata_oauth=; Max-Age=0;/)]);
          expect(tokenRequests(net)).toEqual([]);

          // Anyone else still signs in, several times over.
          for (let i = 0; i < PER_CLIENT; i++) yield* signIn(VICTIM);
          expect(tokenRequests(net)).toHaveLength(PER_CLIENT);

          // Retry-After is honest: nine minutes on, still refused; at expiry, free again.
          yield* TestClock.adjust("9 minutes");
          yield* expectRefusedStart(ATTACKER);
          yield* TestClock.adjust("1 minute");
          yield* signIn(ATTACKER);
        }),
    );
  });

  layer(
    server(
      TransactionStore.layerCookieWith({
        maxEntries: MAX_ENTRIES,
        maxPerClient: PER_CLIENT,
      }).pipe(Layer.provide(TransactionSealer.layer(Redacted.make(KEY)))),
      {},
    ),
  )("without trustProxy", (it) => {
    it.effect(
      "a forged X-Forwarded-For picks no key of its own: the socket's peer is counted",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(T0);
          for (let i = 0; i < PER_CLIENT; i++) yield* startAndDeny(from(`192.0.2.${i}`));
          yield* expectRefusedStart(from("192.0.2.200"));
        }),
    );
  });
});

describe("check 42: one client cannot fill the memory store with waiting transactions", () => {
  layer(
    server(TransactionStore.layerMemoryWith({ maxEntries: MAX_ENTRIES, maxPerClient: PER_CLIENT })),
  )("memory store", (it) => {
    it.effect(
      "plain starts: 429 past maxPerClient, no cookie, never the 503; a completed one frees a place; others start; expired ones free theirs",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(T0);
          const flows = [];
          for (let i = 0; i < PER_CLIENT; i++) flows.push(yield* start("github", "", ATTACKER));
          for (let i = 0; i < 2 * MAX_ENTRIES; i++) yield* expectRefusedStart(ATTACKER);
          // An IPv6 client is counted per /64: another address of the same network is the same client.
          for (let i = 0; i < PER_CLIENT; i++) {
            yield* start("github", "", from(`2001:db8:1:2::${i + 1}`));
          }
          yield* expectRefusedStart(from("2001:db8:1:2:ffff::9"));

          // Anyone else signs in.
          yield* signIn(VICTIM);
          // Completing one of its own transactions frees one place, and one only.
          const first = flows[0];
          mockLogin(net, "github");
          const done = yield* callback(
            "github",
            `?code=c&state=${first?.state}`,
            first?.cookie,
            ATTACKER,
          );
          expect(done.status).toBe(200);
          yield* start("github", "", ATTACKER);
          yield* expectRefusedStart(ATTACKER);

          yield* TestClock.adjust("10 minutes");
          for (let i = 0; i < PER_CLIENT; i++) yield* start("github", "", ATTACKER);
          yield* expectRefusedStart(ATTACKER);
        }),
    );
  });
});

describe("check 42: the capacities are checked at startup", () => {
  it.effect("maxPerClient must be a positive integer below maxEntries", () =>
    Effect.gen(function* () {
      for (const options of [
        { maxEntries: 10, maxPerClient: 10 },
        { maxEntries: 10, maxPerClient: 11 },
        { maxEntries: 10, maxPerClient: 0 },
        { maxEntries: 10, maxPerClient: 1.5 },
      ]) {
        const exit = yield* Effect.exit(
          Effect.provide(TransactionStore, TransactionStore.layerMemoryWith(options)),
        );
        expect(Exit.isFailure(exit)).toBe(true);
      }
      // The default fits a small store: a tenth of it.
      const small = yield* Effect.exit(
        Effect.provide(TransactionStore, TransactionStore.layerMemoryWith({ maxEntries: 5 })),
      );
      expect(Exit.isSuccess(small)).toBe(true);
    }),
  );

  it.effect("trustProxy: true and a bad ipv6Subnet are refused by the routes", () =>
    Effect.gen(function* () {
      for (const options of [
        { trustProxy: true },
        { ipv6Subnet: 0 },
        { ipv6Subnet: 129 },
        { trustProxy: ["not-an-address"] },
      ] satisfies Array<OAuthRoutesOptions>) {
        const error = yield* Effect.flip(
          OAuthRoutes.routes(options).pipe(
            Effect.provide(
              Layer.mergeAll(OAuth.layer(testConfig()), TransactionStore.layerMemory).pipe(
                Layer.provide(FetchHttpClient.layer),
              ),
            ),
          ),
        );
        expect((error as OAuthConfigError)._tag).toBe("OAuthConfigError");
      }
    }),
  );
});

describe("check 42 on the classic face", () => {
  const startApp = startedApps();
  it("maxTransactionsPerClient caps one client's waiting transactions; routes.trustProxy keys clients", async () => {
    @Module({
      imports: [
        OAuthModule.forRoot({
          providers: { github: credentials("github") },
          transactionStore: "memory",
          maxTransactionsPerClient: 2,
          routes: { trustProxy: 1 },
        }),
      ],
    })
    class AppModule {}
    const app = await startApp(AppModule);
    const startFrom = (headers: Record<string, string>) =>
      request(app, "GET", "/auth/github", { headers });
    for (let i = 0; i < 2; i++) expect((await startFrom(ATTACKER)).status).toBe(302);
    const refused = await startFrom(ATTACKER);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(TOO_MANY);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(590);
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect(refused.headers.get("location")).toBeNull();
    expect((await startFrom(VICTIM)).status).toBe(302);
  });
});

/** The shared Redis of the run (see test/support/globalSetup.ts). */
const sharedRedisPort = (): number => {
  const redis = inject("redis");
  if ("error" in redis) throw new Error(`No Redis for the Redis tests: ${redis.error}`);
  return redis.port;
};
let raw: Redis | undefined;
const rawRedis = (): Redis => {
  raw ??= new Redis({ host: "127.0.0.1", port: sharedRedisPort(), lazyConnect: false });
  return raw;
};
afterAll(() => raw?.disconnect());

const redisPrefix = `test:oauth:cap:${randomUUID()}:`;
const redisKeys = () => Effect.promise(() => rawRedis().keys(`${redisPrefix}*`));

describe("check 42 on the Redis store", () => {
  layer(
    server(
      Layer.suspend(() =>
        RedisTransactionStore.layer({
          host: "127.0.0.1",
          port: sharedRedisPort(),
          keyPrefix: redisPrefix,
          maxPerClient: PER_CLIENT,
        }),
      ),
    ),
    { excludeTestServices: true },
  )("Redis store", (it) => {
    it.effect(
      "plain starts: 429 past maxPerClient with nothing written to Redis; others start; a completed one frees a place",
      () =>
        Effect.gen(function* () {
          const flows = [];
          for (let i = 0; i < PER_CLIENT; i++) flows.push(yield* start("github", "", ATTACKER));
          // The transactions and the client's set of waiting ids.
          const written = yield* redisKeys();
          expect(written).toHaveLength(PER_CLIENT + 1);
          expect(written).toContain(`${redisPrefix}client:203.0.113.7`);

          for (let i = 0; i < 3 * PER_CLIENT; i++) yield* expectRefusedStart(ATTACKER);
          expect((yield* redisKeys()).sort()).toEqual([...written].sort());

          yield* signIn(VICTIM);
          const first = flows[0];
          mockLogin(net, "github");
          const done = yield* callback(
            "github",
            `?code=c&state=${first?.state}`,
            first?.cookie,
            ATTACKER,
          );
          expect(done.status).toBe(200);
          yield* start("github", "", ATTACKER);
          yield* expectRefusedStart(ATTACKER);
          // The client's set expires with its newest transaction: nothing stays behind.
          const ttl = yield* Effect.promise(() =>
            rawRedis().pttl(`${redisPrefix}client:203.0.113.7`),
          );
          expect(ttl).toBeGreaterThan(590_000);
          expect(ttl).toBeLessThanOrEqual(600_000);
        }),
    );
  });
});
