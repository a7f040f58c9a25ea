// The contract every session store passes through the real routes of an Effect-face app (see
// ./sessionServer.ts): what a browser sees of sign-in, reload, rotation and sign-out, the
// cookie's attributes, malformed and expired cookies, write-backs, and what never leaks.
// Time is Effect's TestClock, which the app's request fibers read too.
import { describe, expect, it } from "@effect/vitest";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import type * as Layer from "effect/Layer";
import * as TestClock from "effect/TestClock";
import {
  DEFAULT_ABSOLUTE_TIMEOUT,
  DEFAULT_IDLE_TIMEOUT,
  DEFAULT_TOUCH_INTERVAL,
  type SessionStore,
} from "../../../src/session/index.js";
import { CookieJar, type JarResponse } from "../../support/cookieJar.js";
import { type SessionApp, startSessionApp, userOf } from "./sessionServer.js";

/** A store under the contract. */
export interface StoreUnderContract {
  /** A fresh store for one test (its own Redis key prefix, say). */
  readonly layer: () => Layer.Layer<SessionStore, unknown>;
  /** `true` when the store keeps sessions server-side and the cookie holds only an id. */
  readonly serverSide: boolean;
}

/** The cookie's name on http. */
export const COOKIE = "strata_session";

/** The 401 every protected route answers without a valid session. */
export const UNAUTHORIZED = { statusCode: 401, message: "Unauthorized" };

/** The attributes of a `Set-Cookie` header, lower-cased names. */
export const attributesOf = (header: string): Map<string, string> => {
  const [, ...parts] = header.split(";").map((part) => part.trim());
  return new Map(
    parts.map((part) => {
      const eq = part.indexOf("=");
      return eq === -1
        ? [part.toLowerCase(), ""]
        : [part.slice(0, eq).toLowerCase(), part.slice(eq + 1)];
    }),
  );
};

/** `true` when `header` clears the session cookie. */
export const clears = (header: string | undefined, name = COOKIE): boolean =>
  header?.startsWith(`${name}=;`) === true && attributesOf(header).get("max-age") === "0";

const http = (jar: CookieJar, method: string, path: string) =>
  Effect.promise(() => jar.fetch(method, path));

/** Nothing of `secrets` in a response's body or headers (its Set-Cookie aside), nor in the logs. */
export const expectNothingLeaked = (
  app: SessionApp,
  responses: ReadonlyArray<JarResponse>,
  secrets: ReadonlyArray<string>,
) => {
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(8);
    for (const response of responses) {
      expect(response.text).not.toContain(secret);
      for (const [name, value] of response.headers) {
        if (name !== "set-cookie") expect(value).not.toContain(secret);
      }
    }
    for (const line of app.logs) expect(line).not.toContain(secret);
  }
};

/** The session contract, run against `store`. */
export const sessionStoreContract = (name: string, store: StoreUnderContract) =>
  describe(`${name}: the session contract`, () => {
    const start = (options: Parameters<typeof startSessionApp>[1] = {}) =>
      startSessionApp(store.layer(), options);
    const signIn = (jar: CookieJar, id = "alice") =>
      Effect.map(http(jar, "POST", `/login/${id}`), (response) => {
        expect(response.status).toBe(204);
        const value = jar.get(COOKIE);
        expect(value).toBeDefined();
        return value as string;
      });

    it.scoped("sign in, stay signed in across requests, sign out", () =>
      Effect.gen(function* () {
        const app = yield* start();
        const jar = new CookieJar(app.url);
        const before = yield* http(jar, "GET", "/me");
        expect(before.status).toBe(401);
        expect(before.body).toEqual(UNAUTHORIZED);
        expect(before.setCookies).toEqual([]);

        yield* signIn(jar);
        for (let reload = 0; reload < 3; reload++) {
          const me = yield* http(jar, "GET", "/me");
          expect(me.status).toBe(200);
          expect(me.body).toEqual(userOf("alice"));
          // Nothing written back before the touch interval.
          expect(me.setCookies).toEqual([]);
        }
        const maybe = yield* http(jar, "GET", "/maybe");
        expect(maybe.body).toEqual({ user: userOf("alice") });

        const out = yield* http(jar, "POST", "/logout");
        expect(out.status).toBe(204);
        expect(clears(out.setCookies[0])).toBe(true);
        expect(jar.get(COOKIE)).toBeUndefined();
        expect((yield* http(jar, "GET", "/me")).status).toBe(401);
        expect((yield* http(jar, "GET", "/maybe")).body).toEqual({ user: null });
      }),
    );

    it.scoped(
      "check 26: the cookie is HttpOnly; SameSite=Lax; Path=/, no Domain, and on http neither Secure nor __Host-",
      () =>
        Effect.gen(function* () {
          const app = yield* start();
          const jar = new CookieJar(app.url);
          const login = yield* http(jar, "POST", "/login/alice");
          expect(login.setCookies).toHaveLength(1);
          const header = login.setCookies[0];
          expect(header.startsWith(`${COOKIE}=`)).toBe(true);
          const attributes = attributesOf(header);
          expect(attributes.has("httponly")).toBe(true);
          expect(attributes.get("samesite")).toBe("Lax");
          expect(attributes.get("path")).toBe("/");
          expect(attributes.has("domain")).toBe(false);
          expect(attributes.has("secure")).toBe(false);
          // Persistent until the idle timeout (the first deadline of a new session).
          expect(attributes.get("max-age")).toBe(String(Duration.toSeconds(DEFAULT_IDLE_TIMEOUT)));
        }),
    );

    it.scoped(
      "check 25: a new cookie value at every sign-in; with a server-side store a random 256-bit id whose predecessor stops working",
      () =>
        Effect.gen(function* () {
          const app = yield* start();
          const jar = new CookieJar(app.url);
          const values = new Set<string>();
          for (let login = 0; login < 20; login++) values.add(yield* signIn(jar));
          // Signed in again while signed in: a new value every time (no fixation).
          expect(values.size).toBe(20);
          const [first] = values;
          if (store.serverSide) {
            for (const value of values) expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
            // The session a sign-in replaced is gone from the store.
            const copy = new CookieJar(app.url);
            copy.set(COOKIE, first);
            const replayed = yield* http(copy, "GET", "/me");
            expect(replayed.status).toBe(401);
            expect(replayed.body).toEqual(UNAUTHORIZED);
            expect(clears(replayed.setCookies[0])).toBe(true);
          }
          // A session id planted before sign-in is never kept (session fixation).
          const planted = new CookieJar(app.url);
          planted.set(COOKIE, first);
          const fresh = yield* signIn(planted);
          expect(fresh).not.toBe(first);
        }),
    );

    it.scoped(
      "check 28: tampered, truncated, forged, unknown or empty session cookies are no session: 401, cleared, nothing leaked",
      () =>
        Effect.gen(function* () {
          const app = yield* start();
          const jar = new CookieJar(app.url);
          const value = yield* signIn(jar);
          const flipped = `${value.slice(0, 12)}${value[12] === "A" ? "B" : "A"}${value.slice(13)}`;
          const candidates = [
            flipped,
            value.slice(0, -1),
            value.slice(0, 10),
            `${value}A`,
            `${value}.${value}`,
            "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "A".repeat(43),
            "Zm9yZ2VkLXNlc3Npb24taWQtb2YtMjU2LWJpdHMtISE",
            "__proto__",
            "constructor",
            "%00%0d%0a",
            "x".repeat(3000),
          ];
          const responses: Array<JarResponse> = [];
          for (const candidate of candidates) {
            const browser = new CookieJar(app.url);
            browser.set(COOKIE, candidate);
            const me = yield* http(browser, "GET", "/me");
            expect(me.status, candidate).toBe(401);
            expect(me.body, candidate).toEqual(UNAUTHORIZED);
            expect(me.setCookies, candidate).toHaveLength(1);
            expect(clears(me.setCookies[0]), candidate).toBe(true);
            responses.push(me);
            // Where a session is optional, the same cookie is no session, also cleared.
            browser.set(COOKIE, candidate);
            const maybe = yield* http(browser, "GET", "/maybe");
            expect(maybe.status).toBe(200);
            expect(maybe.body).toEqual({ user: null });
            expect(clears(maybe.setCookies[0])).toBe(true);
            responses.push(maybe);
          }
          // The genuine cookie still works; no 500 was logged.
          expect((yield* http(jar, "GET", "/me")).status).toBe(200);
          expect(app.logs.filter((line) => line.startsWith("ERROR"))).toEqual([]);
          expectNothingLeaked(app, responses, [value, flipped]);
        }),
    );

    it.scoped(
      "a route that never asks for the session ignores its cookie: no read, no Set-Cookie",
      () =>
        Effect.gen(function* () {
          const app = yield* start();
          const jar = new CookieJar(app.url);
          yield* signIn(jar);
          // A read: `load`, or `loadNow` for a store that answers at once.
          const reads = () => app.calls.load + app.calls.loadNow;
          const loads = reads();
          const open = yield* http(jar, "GET", "/open");
          expect(open.status).toBe(200);
          expect(open.setCookies).toEqual([]);
          jar.set(COOKIE, "tampered");
          expect((yield* http(jar, "GET", "/open")).setCookies).toEqual([]);
          expect(reads()).toBe(loads);
          // Asked for twice in one request: read once.
          const fresh = new CookieJar(app.url);
          yield* signIn(fresh);
          const before = reads();
          const twice = yield* http(fresh, "GET", "/twice");
          expect(twice.body).toEqual([userOf("alice"), userOf("alice")]);
          expect(reads() - before).toBe(1);
        }),
    );

    it.scoped(
      "check 27: the idle timeout is enforced by the server, whatever cookie the browser still sends",
      () =>
        Effect.gen(function* () {
          const app = yield* start();
          const jar = new CookieJar(app.url);
          const value = yield* signIn(jar);
          yield* TestClock.adjust(Duration.subtract(DEFAULT_IDLE_TIMEOUT, Duration.seconds(1)));
          const alive = yield* http(jar, "GET", "/me");
          expect(alive.status).toBe(200);
          // That use slid the idle timeout: a day later than the last use, not the sign-in.
          yield* TestClock.adjust(Duration.subtract(DEFAULT_IDLE_TIMEOUT, Duration.seconds(1)));
          expect((yield* http(jar, "GET", "/me")).status).toBe(200);
          yield* TestClock.adjust(DEFAULT_IDLE_TIMEOUT);
          const idle = yield* http(jar, "GET", "/me");
          expect(idle.status).toBe(401);
          expect(idle.body).toEqual(UNAUTHORIZED);
          expect(clears(idle.setCookies[0])).toBe(true);
          // The first cookie, copied and replayed, is as dead.
          const copy = new CookieJar(app.url);
          copy.set(COOKIE, value);
          expect((yield* http(copy, "GET", "/me")).status).toBe(401);
          expectNothingLeaked(app, [alive, idle], [value]);
        }),
    );

    it.scoped(
      "check 27: the absolute lifetime ends a session in constant use, rotated or not",
      () =>
        Effect.gen(function* () {
          const app = yield* start();
          const jar = new CookieJar(app.url);
          yield* signIn(jar);
          const step = Duration.hours(6);
          let elapsed = Duration.zero;
          while (Duration.lessThan(Duration.sum(elapsed, step), DEFAULT_ABSOLUTE_TIMEOUT)) {
            yield* TestClock.adjust(step);
            elapsed = Duration.sum(elapsed, step);
            expect((yield* http(jar, "GET", "/me")).status, Duration.format(elapsed)).toBe(200);
            // A rotation on the way does not restart the lifetime.
            if (Duration.equals(elapsed, Duration.days(5))) {
              expect((yield* http(jar, "POST", "/rotate")).status).toBe(204);
            }
          }
          yield* TestClock.adjust(step);
          const ended = yield* http(jar, "GET", "/me");
          expect(ended.status).toBe(401);
          expect(ended.body).toEqual(UNAUTHORIZED);
          expect(clears(ended.setCookies[0])).toBe(true);
        }),
    );

    it.scoped(
      "a session in use is written back at most once per touch interval: one Set-Cookie, one store write",
      () =>
        Effect.gen(function* () {
          const app = yield* start();
          const jar = new CookieJar(app.url);
          yield* signIn(jar);
          const setCookies = () => jar.received.length;
          const afterLogin = setCookies();
          const writes = app.calls.update;
          // A request a minute for an hour: twelve write-backs of five minutes each, at most.
          for (let minute = 1; minute <= 60; minute++) {
            yield* TestClock.adjust(Duration.minutes(1));
            expect((yield* http(jar, "GET", "/me")).status).toBe(200);
          }
          const perInterval =
            Duration.toMinutes(Duration.minutes(60)) / Duration.toMinutes(DEFAULT_TOUCH_INTERVAL);
          expect(setCookies() - afterLogin).toBe(perInterval);
          expect(app.calls.update - writes).toBe(perInterval);
          // Each write-back moved the cookie's expiry with it.
          const last = jar.received[jar.received.length - 1];
          expect(attributesOf(last).get("max-age")).toBe(
            String(Duration.toSeconds(DEFAULT_IDLE_TIMEOUT)),
          );
          // Many requests within one interval: no write at all.
          const before = setCookies();
          for (let i = 0; i < 20; i++) yield* http(jar, "GET", "/me");
          expect(setCookies()).toBe(before);
        }),
    );

    it.scoped("rotate: a new cookie value for the same session", () =>
      Effect.gen(function* () {
        const app = yield* start();
        const jar = new CookieJar(app.url);
        const old = yield* signIn(jar);
        const rotated = yield* http(jar, "POST", "/rotate");
        expect(rotated.status).toBe(204);
        const now = jar.get(COOKIE);
        expect(now).toBeDefined();
        expect(now).not.toBe(old);
        expect((yield* http(jar, "GET", "/me")).body).toEqual(userOf("alice"));
        const copy = new CookieJar(app.url);
        copy.set(COOKIE, old);
        const replayed = yield* http(copy, "GET", "/me");
        if (store.serverSide) {
          // The old id is gone from the store.
          expect(replayed.status).toBe(401);
          expect(clears(replayed.setCookies[0])).toBe(true);
        } else {
          // A sealed cookie cannot be revoked one by one: the copy lives until it expires.
          expect(replayed.status).toBe(200);
        }
        // Nothing to rotate without a session.
        const anonymous = yield* http(new CookieJar(app.url), "POST", "/rotate");
        expect(anonymous.status).toBe(401);
        expect(anonymous.body).toEqual(UNAUTHORIZED);
      }),
    );

    it.scoped(
      store.serverSide
        ? "sign-out deletes the session: a cookie copied before it no longer works"
        : "sign-out clears the cookie; a copy made before lives until it expires (stateless)",
      () =>
        Effect.gen(function* () {
          const app = yield* start();
          const jar = new CookieJar(app.url);
          const value = yield* signIn(jar);
          const out = yield* http(jar, "POST", "/logout");
          expect(clears(out.setCookies[0])).toBe(true);
          const copy = new CookieJar(app.url);
          copy.set(COOKIE, value);
          expect((yield* http(copy, "GET", "/me")).status).toBe(store.serverSide ? 401 : 200);
          // Signing out without a session still clears the cookie.
          const anonymous = yield* http(new CookieJar(app.url), "POST", "/logout");
          expect(anonymous.status).toBe(204);
          expect(clears(anonymous.setCookies[0])).toBe(true);
        }),
    );

    it.scoped("destroyAllFor ends every session of that user, and only theirs", () =>
      Effect.gen(function* () {
        const app = yield* start();
        const laptop = new CookieJar(app.url);
        const phone = new CookieJar(app.url);
        const other = new CookieJar(app.url);
        yield* signIn(laptop, "alice");
        yield* signIn(phone, "alice");
        yield* signIn(other, "bob");
        const phoneValue = phone.get(COOKIE) as string;
        expect((yield* http(other, "POST", "/everywhere/alice")).status).toBe(204);
        for (const browser of [laptop, phone]) {
          const me = yield* http(browser, "GET", "/me");
          expect(me.status).toBe(401);
          expect(me.body).toEqual(UNAUTHORIZED);
          expect(clears(me.setCookies[0])).toBe(true);
        }
        const copy = new CookieJar(app.url);
        copy.set(COOKIE, phoneValue);
        expect((yield* http(copy, "GET", "/me")).status).toBe(401);
        expect((yield* http(other, "GET", "/me")).body).toEqual(userOf("bob"));
        // Signing in again afterwards works.
        yield* signIn(laptop, "alice");
        expect((yield* http(laptop, "GET", "/me")).status).toBe(200);
        // Once due a write-back, a session of that user is ended, not written back.
        yield* TestClock.adjust(DEFAULT_TOUCH_INTERVAL);
        yield* http(other, "POST", "/everywhere/alice");
        expect((yield* http(laptop, "GET", "/me")).status).toBe(401);
      }),
    );

    it.scoped(
      "check 30: the cookie value never appears in a URL, a response body, another header or a log line",
      () =>
        Effect.gen(function* () {
          const app = yield* start();
          const jar = new CookieJar(app.url);
          const responses: Array<JarResponse> = [];
          const values: Array<string> = [];
          const record = (response: JarResponse) => {
            responses.push(response);
            const value = jar.get(COOKIE);
            if (value !== undefined && !values.includes(value)) values.push(value);
            expect(response.headers.get("location")).toBeNull();
          };
          record(yield* http(jar, "POST", "/login/alice"));
          record(yield* http(jar, "GET", "/me"));
          yield* TestClock.adjust(DEFAULT_TOUCH_INTERVAL);
          record(yield* http(jar, "GET", "/twice"));
          record(yield* http(jar, "POST", "/rotate"));
          record(yield* http(jar, "GET", "/maybe"));
          record(yield* http(jar, "POST", "/logout"));
          // Sign-in and rotation; a sealed cookie also changes at its write-back.
          expect(values).toHaveLength(store.serverSide ? 2 : 3);
          expectNothingLeaked(app, responses, values);
        }),
    );
  });
