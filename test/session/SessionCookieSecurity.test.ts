// The session cookie on https (check 26) and bound to its purpose (check 33): a transaction
// cookie is never a session cookie, nor the reverse, under the same secret.
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Sealer from "../../src/crypto/Sealer.js";
import { transactionJson } from "../../src/oauth/OAuthTransaction.js";
import { CookieSessionStore, MemorySessionStore } from "../../src/session/index.js";
import { callback, KEY, oauthServer, start } from "../oauth/support/server.js";
import { CookieJar } from "../support/cookieJar.js";
import {
  attributesOf,
  COOKIE,
  clears,
  expectNothingLeaked,
  UNAUTHORIZED,
} from "./support/sessionContract.js";
import { startSessionApp, UserSession, userOf } from "./support/sessionServer.js";

const SECURE_COOKIE = `__Host-${COOKIE}`;
const HTTPS = { "x-forwarded-proto": "https" };

const http = (jar: CookieJar, method: string, path: string, headers: Record<string, string> = {}) =>
  Effect.promise(() => jar.fetch(method, path, { headers }));

describe("the session cookie on https", () => {
  it.scoped(
    "check 26: behind a trusted proxy saying https, the cookie is __Host-, Secure, HttpOnly, SameSite=Lax, Path=/, no Domain",
    () =>
      Effect.gen(function* () {
        const app = yield* startSessionApp(MemorySessionStore.layer(), { trustProxy: true });
        const jar = new CookieJar(app.url);
        const login = yield* http(jar, "POST", "/login/alice", HTTPS);
        expect(login.setCookies).toHaveLength(1);
        const header = login.setCookies[0];
        expect(header.startsWith(`${SECURE_COOKIE}=`)).toBe(true);
        const attributes = attributesOf(header);
        expect(attributes.has("secure")).toBe(true);
        expect(attributes.has("httponly")).toBe(true);
        expect(attributes.get("samesite")).toBe("Lax");
        expect(attributes.get("path")).toBe("/");
        expect(attributes.has("domain")).toBe(false);
        expect((yield* http(jar, "GET", "/me", HTTPS)).body).toEqual(userOf("alice"));

        // On https only the __Host- cookie counts: one planted without the prefix (by a sibling
        // subdomain, say) is never read.
        const planted = new CookieJar(app.url);
        planted.set(COOKIE, jar.get(SECURE_COOKIE) as string);
        const refused = yield* http(planted, "GET", "/me", HTTPS);
        expect(refused.status).toBe(401);
        expect(refused.body).toEqual(UNAUTHORIZED);

        const out = yield* http(jar, "POST", "/logout", HTTPS);
        expect(clears(out.setCookies[0], SECURE_COOKIE)).toBe(true);
        expect(attributesOf(out.setCookies[0]).has("secure")).toBe(true);
      }),
  );

  it.scoped("X-Forwarded-Proto from an untrusted client changes nothing", () =>
    Effect.gen(function* () {
      const app = yield* startSessionApp(MemorySessionStore.layer());
      const jar = new CookieJar(app.url);
      const login = yield* http(jar, "POST", "/login/alice", HTTPS);
      expect(login.setCookies[0].startsWith(`${COOKIE}=`)).toBe(true);
      expect(attributesOf(login.setCookies[0]).has("secure")).toBe(false);
    }),
  );

  it.scoped("secure: true gives the __Host- cookie on every request", () =>
    Effect.gen(function* () {
      const app = yield* startSessionApp(MemorySessionStore.layer(), { secure: true });
      const jar = new CookieJar(app.url);
      const login = yield* http(jar, "POST", "/login/alice");
      expect(login.setCookies[0].startsWith(`${SECURE_COOKIE}=`)).toBe(true);
      expect(attributesOf(login.setCookies[0]).has("secure")).toBe(true);
      expect((yield* http(jar, "GET", "/me")).status).toBe(200);
    }),
  );
});

describe("sealed cookies are bound to their purpose", () => {
  const transactionPurpose = {
    salt: "strata/oauth",
    info: "transaction-cookie/v1",
    aad: "strata/oauth/transaction/v1",
  };
  const sessionPurpose = {
    salt: "strata/session",
    info: "session-cookie/v1",
    aad: "strata/session/cookie/v1",
  };

  it.effect(
    "check 33: under one secret, each purpose opens only its own values, even with the same key bytes",
    () =>
      Effect.gen(function* () {
        const secret = Redacted.make(KEY);
        const transaction = yield* Sealer.make(
          Sealer.deriveKey(secret, transactionPurpose),
          transactionPurpose,
        );
        const session = yield* Sealer.make(
          Sealer.deriveKey(secret, sessionPurpose),
          sessionPurpose,
        );
        const sealedTransaction = yield* transaction.seal('{"state":"s"}');
        const sealedSession = yield* session.seal('{"d":{"id":"alice"}}');
        expect(transaction.open(sealedTransaction)).toBe('{"state":"s"}');
        expect(session.open(sealedSession)).toBe('{"d":{"id":"alice"}}');
        expect(session.open(sealedTransaction)).toBeUndefined();
        expect(transaction.open(sealedSession)).toBeUndefined();
        // The authenticated purpose alone separates them: same key bytes, other purpose.
        const sameKey = yield* Sealer.make(
          Sealer.deriveKey(secret, transactionPurpose),
          sessionPurpose,
        );
        expect(sameKey.open(sealedTransaction)).toBeUndefined();
      }),
  );

  it.scoped(
    "check 33: a transaction cookie presented as the session cookie is no session (401, cleared), and a session cookie presented as the transaction cookie is an invalid state",
    () =>
      Effect.gen(function* () {
        const oauth = yield* Layer.build(oauthServer());
        const sessions = yield* startSessionApp(
          CookieSessionStore.layer({ secret: Redacted.make(KEY) }),
        );

        // The sealed transaction of a started sign-in, as the session cookie.
        const flow = yield* Effect.provide(start("google"), oauth);
        const transactionValue = decodeURIComponent(
          flow.cookie.slice(flow.cookie.indexOf("=") + 1),
        );
        expect(transactionValue).toMatch(/^v1\./);
        const jar = new CookieJar(sessions.url);
        jar.set(COOKIE, transactionValue);
        const me = yield* http(jar, "GET", "/me");
        expect(me.status).toBe(401);
        expect(me.body).toEqual(UNAUTHORIZED);
        expect(clears(me.setCookies[0])).toBe(true);

        // A live session cookie, as the transaction cookie of a callback.
        const signedIn = new CookieJar(sessions.url);
        yield* http(signedIn, "POST", "/login/alice");
        const sessionValue = signedIn.get(COOKIE) as string;
        expect(sessionValue).toMatch(/^v1\./);
        const answer = yield* Effect.provide(
          callback("google", `?code=code-1&state=${flow.state}`, `strata_oauth=${sessionValue}`),
          oauth,
        );
        expect(answer.status).toBe(401);
        expect(answer.json).toEqual({
          statusCode: 401,
          message: "Invalid state",
          error: "invalid_state",
        });
        expect(answer.text).not.toContain(sessionValue);
        expectNothingLeaked(sessions, [me], [transactionValue, sessionValue]);
      }),
  );

  it.scoped(
    "check 33: a well-formed session sealed for the transaction purpose is refused, and a well-formed transaction sealed for the session purpose too",
    () =>
      Effect.gen(function* () {
        const secret = Redacted.make(KEY);
        const oauth = yield* Layer.build(oauthServer());
        const sessions = yield* startSessionApp(CookieSessionStore.layer({ secret }));
        const now = Date.now();

        // What the session store would accept, sealed under the same secret for transactions.
        const asTransaction = yield* Sealer.make(
          Sealer.deriveKey(secret, transactionPurpose),
          transactionPurpose,
        );
        const session = JSON.stringify({ d: userOf("alice"), u: "alice", c: now, t: now, g: 0 });
        const jar = new CookieJar(sessions.url);
        jar.set(COOKIE, yield* asTransaction.seal(session));
        const me = yield* http(jar, "GET", "/me");
        expect(me.status).toBe(401);
        expect(clears(me.setCookies[0])).toBe(true);
        // The same text sealed for sessions is a session: only the purpose differs.
        const asSession = yield* Sealer.make(
          Sealer.deriveKey(secret, sessionPurpose),
          sessionPurpose,
        );
        jar.set(COOKIE, yield* asSession.seal(session));
        expect((yield* http(jar, "GET", "/me")).body).toEqual(userOf("alice"));

        // A transaction the callback would accept, sealed for sessions.
        const flow = yield* Effect.provide(start("google"), oauth);
        const transaction = transactionJson({
          provider: "google",
          state: flow.state,
          codeVerifier: "verifier-1",
          nonce: "nonce-1",
          redirects: {},
          expiry: now + 60_000,
        });
        const answer = yield* Effect.provide(
          callback(
            "google",
            `?code=code-1&state=${flow.state}`,
            `strata_oauth=${yield* asSession.seal(transaction)}`,
          ),
          oauth,
        );
        expect(answer.status).toBe(401);
        expect(answer.json).toMatchObject({ message: "Invalid state", error: "invalid_state" });
      }),
  );
});

describe("session options", () => {
  const build = (options: Parameters<typeof UserSession.layer>[0]) =>
    Effect.exit(
      Layer.build(UserSession.layer(options).pipe(Layer.provide(MemorySessionStore.layer()))),
    );

  it.scoped("bad options fail the start, naming the option", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<readonly [Parameters<typeof UserSession.layer>[0], string]> = [
        [{ touchInterval: "1 day" }, "touchInterval"],
        [{ idleTimeout: "0 seconds" }, "idleTimeout"],
        [{ absoluteTimeout: "forever" as never }, "absoluteTimeout"],
        [{ cookieName: "bad name" }, "cookieName"],
        [{ cookieName: "__Host-mine" }, "cookieName"],
      ];
      for (const [options, name] of cases) {
        const exit = yield* build(options);
        expect(Exit.isFailure(exit), name).toBe(true);
        expect(String(exit), name).toContain(name);
      }
      const fine = yield* build({ idleTimeout: "30 minutes", touchInterval: "1 minute" });
      expect(Exit.isSuccess(fine)).toBe(true);
      if (Exit.isSuccess(fine))
        expect(Context.getOption(fine.value, UserSession)._tag).toBe("Some");
    }),
  );
});
