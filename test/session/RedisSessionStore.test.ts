// The Redis session store against the real redis-server of the test run (see
// test/support/globalSetup.ts): the session contract through the real routes, what Redis holds,
// requests arriving together (their reads in one MGET), two app instances sharing one Redis, and
// Redis down.
import { randomBytes, randomUUID } from "node:crypto";
import { connect, type Socket } from "node:net";
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

/** A response read off a raw connection: its status and its JSON body. */
interface RawResponse {
  readonly status: number;
  readonly body: unknown;
}

/** A keep-alive HTTP/1.1 connection, one request at a time, responses framed by Content-Length. */
interface RawConnection {
  readonly send: (path: string, cookie?: string) => Promise<RawResponse>;
  readonly close: () => void;
}

/** Opens a {@link RawConnection} to `url`'s host and port. */
const rawConnection = (url: string) =>
  new Promise<RawConnection>((resolve, reject) => {
    const { hostname, port } = new URL(url);
    let buffered = Buffer.alloc(0);
    let waiting: { resolve: (response: RawResponse) => void; reject: (e: Error) => void } | null =
      null;
    const settle = (outcome: RawResponse | Error) => {
      const current = waiting;
      waiting = null;
      if (outcome instanceof Error) current?.reject(outcome);
      else current?.resolve(outcome);
    };
    const socket: Socket = connect({ host: hostname, port: Number(port) }, () =>
      resolve({
        send: (path, cookie) =>
          new Promise<RawResponse>((resolve, reject) => {
            waiting = { resolve, reject };
            const cookieLine = cookie === undefined ? "" : `Cookie: ${COOKIE}=${cookie}\r\n`;
            socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${cookieLine}\r\n`);
          }),
        close: () => socket.destroy(),
      }),
    );
    socket.once("error", (error) => {
      reject(error);
      settle(error);
    });
    socket.once("close", () => settle(new Error("connection closed before the response")));
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (end === -1) return;
      const head = buffered.subarray(0, end).toString("latin1");
      const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
      if (length === undefined) return settle(new Error(`no Content-Length: ${head}`));
      const bodyEnd = end + 4 + Number(length);
      if (buffered.length < bodyEnd) return;
      const body = buffered.subarray(end + 4, bodyEnd).toString("utf8");
      buffered = buffered.subarray(bodyEnd);
      settle({ status: Number(head.split(" ")[1]), body: JSON.parse(body) });
    });
  });

/**
 * `GET path` with each of `cookies` on a keep-alive connection of its own, the requests written
 * together once the server has answered one request on every connection (it accepts new
 * connections one turn of its event loop at a time), so that it reads them in one turn.
 */
const burst = (url: string, path: string, cookies: ReadonlyArray<string>) =>
  Effect.acquireUseRelease(
    Effect.promise(() => Promise.all(cookies.map(() => rawConnection(url)))),
    (connections) =>
      Effect.promise(async () => {
        for (const warmUp of await Promise.all(connections.map((c) => c.send("/open")))) {
          expect(warmUp.status).toBe(200);
        }
        return Promise.all(connections.map((connection, i) => connection.send(path, cookies[i])));
      }),
    (connections) =>
      Effect.sync(() => {
        for (const connection of connections) connection.close();
      }),
  );

/** The session app on the shared Redis, under a key prefix of its own. */
const appOnSharedRedis = Effect.suspend(() => {
  const keyPrefix = freshPrefix();
  return Effect.map(
    startSessionApp(
      RedisSessionStore.layer({ host: "127.0.0.1", port: sharedRedisPort(), keyPrefix }),
    ),
    (app) => ({ keyPrefix, app }),
  );
});

describe("RedisSessionStore", () => {
  it.scopedLive(
    "check 25: the cookie holds only the id; Redis holds the session, its user's set, with expiries",
    () =>
      Effect.gen(function* () {
        const { keyPrefix, app } = yield* appOnSharedRedis;
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
    "a session read again is what Redis holds now: changed in Redis, the next request sees the change",
    () =>
      Effect.gen(function* () {
        const { keyPrefix, app } = yield* appOnSharedRedis;
        const jar = new CookieJar(app.url);
        yield* http(jar, "POST", "/login/alice");
        const key = `${keyPrefix}s:${jar.get(COOKIE) as string}`;
        // Read twice unchanged (the second from the store's parsed records), then changed.
        expect((yield* http(jar, "GET", "/me")).body).toEqual(userOf("alice"));
        expect((yield* http(jar, "GET", "/me")).body).toEqual(userOf("alice"));
        const record = JSON.parse((yield* Effect.promise(() => rawRedis().get(key))) ?? "null");
        const renamed = { ...record, data: { ...record.data, name: "renamed in Redis" } };
        yield* Effect.promise(() => rawRedis().set(key, JSON.stringify(renamed), "KEEPTTL"));
        expect((yield* http(jar, "GET", "/me")).body).toEqual({
          id: "alice",
          name: "renamed in Redis",
        });
        // Back to the first JSON: the record parsed for it then is right again.
        yield* Effect.promise(() => rawRedis().set(key, JSON.stringify(record), "KEEPTTL"));
        expect((yield* http(jar, "GET", "/me")).body).toEqual(userOf("alice"));
        yield* Effect.promise(() => rawRedis().del(key));
        const gone = yield* http(jar, "GET", "/me");
        expect(gone.status).toBe(401);
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
    "20 requests with session cookies arriving together: each answered with its own session, or 401; their reads sent as MGETs",
    () =>
      Effect.gen(function* () {
        const { keyPrefix, app } = yield* appOnSharedRedis;
        const users = Array.from({ length: 10 }, (_, i) => `user-${i}`);
        const valid: Array<string> = [];
        for (const user of users) {
          const jar = new CookieJar(app.url);
          yield* http(jar, "POST", `/login/${user}`);
          valid.push(jar.get(COOKIE) as string);
        }
        // Well-formed ids this store never made: asked of Redis, which has none.
        const unknown = users.map(() => randomBytes(32).toString("base64url"));
        // Interleaved: a valid session, an unknown one, ...
        const cookies = valid.flatMap((id, i) => [id, unknown[i]]);

        // What Redis is asked under this test's prefix.
        const monitor = yield* Effect.acquireRelease(
          Effect.promise(() => rawRedis().monitor()),
          (client) => Effect.sync(() => client.disconnect()),
        );
        const commands: Array<ReadonlyArray<string>> = [];
        monitor.on("monitor", (_time: string, args: ReadonlyArray<string>) => {
          if (args.some((arg) => arg.startsWith(keyPrefix))) commands.push(args);
        });

        const responses = yield* burst(app.url, "/me", cookies);
        expect(responses).toEqual(
          cookies.map((_, i) =>
            i % 2 === 0
              ? { status: 200, body: userOf(users[i / 2]) }
              : { status: 401, body: UNAUTHORIZED },
          ),
        );

        // Every session read went out in one MGET (none as a GET of its own): the server read
        // the 20 requests in one turn of its event loop.
        const loadKey = (id: string) => `${keyPrefix}s:${id}`;
        const wanted = cookies.map(loadKey).sort();
        const deadline = Date.now() + 2_000;
        const mgets = () => commands.filter(([name]) => name.toLowerCase() === "mget");
        while (mgets().flatMap(([, ...keys]) => keys).length < wanted.length) {
          if (Date.now() > deadline) break;
          yield* Effect.sleep("20 millis");
        }
        expect(
          mgets()
            .flatMap(([, ...keys]) => keys)
            .sort(),
        ).toEqual(wanted);
        expect(mgets()).toHaveLength(1);
        expect(commands.filter(([name]) => name.toLowerCase() === "get")).toEqual([]);
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
