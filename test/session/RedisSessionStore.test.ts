// The Redis session store against the real redis-server of the test run (see
// test/support/globalSetup.ts): the session contract through the real routes, what Redis holds,
// two app instances sharing one Redis, and Redis down.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import { Redis } from "ioredis";
import { afterAll, inject } from "vitest";
import { RedisSessionStore } from "../../src/session/index.js";
import { CookieJar } from "../support/cookieJar.js";
import { freePort } from "../support/freePort.js";
import {
  COOKIE,
  clears,
  expectNothingLeaked,
  sessionStoreContract,
  UNAUTHORIZED,
} from "./support/sessionContract.js";
import { startSessionApp, userOf } from "./support/sessionServer.js";

/** The shared Redis of the run. */
const sharedRedisPort = (): number => {
  const redis = inject("redis");
  if ("error" in redis) throw new Error(`No Redis for the Redis tests: ${redis.error}`);
  return redis.port;
};

/** A key prefix of its own per test. */
const freshPrefix = () => `test:session:${randomUUID()}:`;

let raw: Redis | undefined;
const rawRedis = (): Redis => {
  raw ??= new Redis({ host: "127.0.0.1", port: sharedRedisPort() });
  return raw;
};
afterAll(() => raw?.disconnect());

sessionStoreContract("RedisSessionStore", {
  layer: () =>
    RedisSessionStore.layer({
      host: "127.0.0.1",
      port: sharedRedisPort(),
      keyPrefix: freshPrefix(),
    }),
  serverSide: true,
});

const http = (jar: CookieJar, method: string, path: string) =>
  Effect.promise(() => jar.fetch(method, path));

describe("RedisSessionStore", () => {
  it.scopedLive(
    "check 25: the cookie holds only the id; Redis holds the session, its user's set, with expiries",
    () =>
      Effect.gen(function* () {
        const keyPrefix = freshPrefix();
        const app = yield* startSessionApp(
          RedisSessionStore.layer({ host: "127.0.0.1", port: sharedRedisPort(), keyPrefix }),
        );
        const jar = new CookieJar(app.url);
        yield* http(jar, "POST", "/login/alice");
        const id = jar.get(COOKIE) as string;
        expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(Buffer.from(id, "base64url")).toHaveLength(32);
        const stored = yield* Effect.promise(() => rawRedis().get(`${keyPrefix}s:${id}`));
        const record = JSON.parse(stored ?? "null");
        expect(record.data).toEqual(userOf("alice"));
        expect(record.userId).toBe("alice");
        const ttl = yield* Effect.promise(() => rawRedis().pttl(`${keyPrefix}s:${id}`));
        expect(ttl).toBeGreaterThan(24 * 3_600_000 - 10_000);
        expect(ttl).toBeLessThanOrEqual(24 * 3_600_000);
        const members = yield* Effect.promise(() => rawRedis().smembers(`${keyPrefix}u:alice`));
        expect(members).toEqual([id]);
        expect(yield* Effect.promise(() => rawRedis().pttl(`${keyPrefix}u:alice`))).toBeGreaterThan(
          0,
        );

        yield* http(jar, "POST", "/logout");
        expect(yield* Effect.promise(() => rawRedis().exists(`${keyPrefix}s:${id}`))).toBe(0);
        expect(yield* Effect.promise(() => rawRedis().smembers(`${keyPrefix}u:alice`))).toEqual([]);
      }),
  );

  it.scopedLive(
    "two instances on one Redis: a session of one works on the other, and ends on both",
    () =>
      Effect.gen(function* () {
        const options = { host: "127.0.0.1", port: sharedRedisPort(), keyPrefix: freshPrefix() };
        const first = yield* startSessionApp(RedisSessionStore.layer(options));
        const second = yield* startSessionApp(RedisSessionStore.layer(options));
        const jar = new CookieJar(first.url);
        yield* http(jar, "POST", "/login/alice");
        const onSecond = new CookieJar(second.url);
        onSecond.set(COOKIE, jar.get(COOKIE) as string);
        expect((yield* http(onSecond, "GET", "/me")).body).toEqual(userOf("alice"));
        yield* http(onSecond, "POST", "/everywhere/alice");
        expect((yield* http(jar, "GET", "/me")).status).toBe(401);
      }),
  );

  it.scopedLive(
    "Redis down: 503 in the standard shape, nothing about Redis or the session leaked",
    () =>
      Effect.gen(function* () {
        const port = yield* Effect.promise(() => freePort());
        const app = yield* startSessionApp(
          RedisSessionStore.layer({ host: "127.0.0.1", port, connectTimeout: 200 }),
        );
        const jar = new CookieJar(app.url);
        const id = "A".repeat(20) + "B".repeat(23);
        jar.set(COOKIE, id);
        const me = yield* http(jar, "GET", "/me");
        expect(me.status).toBe(503);
        expect(me.body).toEqual({ statusCode: 503, message: "Service Unavailable" });
        const login = yield* http(jar, "POST", "/login/alice");
        expect(login.status).toBe(503);
        // Signing out clears the browser's cookie even when the store cannot be told.
        const out = yield* http(jar, "POST", "/logout");
        expect(out.status).toBe(503);
        expect(clears(out.setCookies[0])).toBe(true);
        // Routes that do not ask for the session do not notice.
        expect((yield* http(jar, "GET", "/open")).status).toBe(200);
        expect(app.logs.some((line) => line.includes("Session store unavailable"))).toBe(true);
        expect(me.text).not.toContain("Redis");
        expectNothingLeaked(app, [me, login, out], [id]);
        // Not a 401: the client did nothing wrong.
        expect(me.body).not.toEqual(UNAUTHORIZED);
      }),
  );
});
