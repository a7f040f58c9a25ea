// SECURITY.md check 47 over real HTTP: session data built from provider input that does not fit
// the sealed cookie is a coded failure (422 `session_too_large`, or a redirect to
// `errorRedirect` with `error=session_too_large`), never a 500. Nothing is written (no session
// cookie), nothing of the data leaks, and the server goes on signing others in.
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import { OAuthRoutes, OAuthSessionUser } from "../../src/oauth/index.js";
import {
  CookieSessionStore,
  Session,
  SessionStore,
  SessionTooLarge,
} from "../../src/session/index.js";
import { MockProvider, serveTest } from "../../src/testing/index.js";
import { baseUrlOf } from "../support/baseUrl.js";
import { CookieJar } from "../support/cookieJar.js";
import { COOKIE, clears } from "./support/sessionContract.js";

const SECRET = "session-secret-0123456789-abcdefghijklmnop";
const LONG_NAME = `Mallory ${"x".repeat(5_000)}`;
const TOO_LARGE = {
  statusCode: 422,
  message: "Session data too large",
  error: "session_too_large",
};

const UserSession = Session.make(OAuthSessionUser);

const warnings: Array<string> = [];
const captureWarnings = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ logLevel, message }) => {
    if (logLevel.label === "WARN") warnings.push(String(message));
  }),
);

/**
 * The built-in routes signing the profile in (`session: {}`) on the sealed-cookie store: github
 * answers a profile with a 5 000-character name, google a plain one.
 */
const server = serveTest(
  OAuthRoutes.layer({ session: {} }).pipe(
    Layer.provide(
      MockProvider.layer(
        { provider: "github", profile: { id: "66", name: LONG_NAME } },
        { provider: "google", profile: { id: "7", name: "Ada" } },
      ),
    ),
    Layer.provide(UserSession.layer()),
    Layer.provide(CookieSessionStore.layer({ secret: SECRET })),
  ),
).pipe(Layer.provide(captureWarnings));

const http = (jar: CookieJar, path: string) => Effect.promise(() => jar.fetch("GET", path));

/** Starts a sign-in at `provider` and comes back with its callback. */
const signIn = (jar: CookieJar, provider: string, query = "") =>
  Effect.gen(function* () {
    const started = yield* http(jar, `/auth/${provider}${query}`);
    expect(started.status).toBe(302);
    const state = new URL(started.headers.get("location") ?? "").searchParams.get("state");
    return yield* http(jar, `/auth/${provider}/callback?state=${state}&code=any`);
  });

/** No session was written: the transaction cookie cleared, no session cookie, still signed out. */
const expectNothingWritten = (jar: CookieJar, setCookies: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    expect(setCookies).toHaveLength(1);
    expect(clears(setCookies[0], "strata_oauth")).toBe(true);
    expect(setCookies.some((header) => header.startsWith(`${COOKIE}=`))).toBe(false);
    expect(jar.get(COOKIE)).toBeUndefined();
    expect((yield* http(jar, "/auth/session")).status).toBe(401);
  });

describe("check 47: a session too large for its cookie is a coded failure", () => {
  it.scoped(
    "a 5 000-character profile name: 422 session_too_large, nothing written or leaked; others still sign in",
    () =>
      Effect.gen(function* () {
        const url = yield* baseUrlOf(server);
        warnings.length = 0;
        const jar = new CookieJar(url);
        const refused = yield* signIn(jar, "github");
        expect(refused.status).toBe(422);
        expect(refused.body).toEqual(TOO_LARGE);
        expect(refused.headers.get("cache-control")).toBe("no-store");
        expect(refused.headers.get("location")).toBeNull();
        expect(refused.text).not.toContain("xxxxxxxx");
        expect(refused.text).not.toMatch(/Mallory|stack|Error:|characters/);
        yield* expectNothingWritten(jar, refused.setCookies);
        // The operator is told why, without the data.
        const told = warnings.filter((w) => w.includes("more than a cookie holds"));
        expect(told).toHaveLength(1);
        expect(told[0]).not.toContain("Mallory");

        // The same server signs a plain profile in.
        const other = new CookieJar(url);
        const done = yield* signIn(other, "google");
        expect(done.status).toBe(302);
        expect(done.headers.get("location")).toBe("/");
        expect(other.get(COOKIE)).toBeDefined();
        const me = yield* http(other, "/auth/session");
        expect(me.status).toBe(200);
        expect(me.body).toMatchObject({ id: "google:7", name: "Ada" });
      }),
  );

  it.scoped("with errorRedirect: a 302 there with error=session_too_large, nothing written", () =>
    Effect.gen(function* () {
      const url = yield* baseUrlOf(server);
      const jar = new CookieJar(url);
      const refused = yield* signIn(jar, "github", "?errorRedirect=/login");
      expect(refused.status).toBe(302);
      expect(refused.headers.get("location")).toBe("/login?error=session_too_large");
      expect(refused.text).toBe("");
      yield* expectNothingWritten(jar, refused.setCookies);
    }),
  );

  it.effect("the sealed-cookie store refuses it with SessionTooLarge, not a defect", () =>
    Effect.gen(function* () {
      const store = yield* SessionStore;
      const now = Date.now();
      const record = { data: { name: LONG_NAME }, createdAt: now, touchedAt: now };
      const exit = yield* Effect.exit(store.create(record, now + 60_000));
      expect(Exit.isFailure(exit)).toBe(true);
      const error = yield* Effect.flip(store.create(record, now + 60_000));
      expect(error).toBeInstanceOf(SessionTooLarge);
      expect(error).toMatchObject({ httpStatus: 422, code: "session_too_large" });
    }).pipe(Effect.provide(CookieSessionStore.layer({ secret: SECRET }))),
  );
});
