// The login loop of the built-in routes (`session` option): a mocked github signs the user in
// through the real routes, the callback creates the session and redirects, `GET /auth/session`
// answers the user, `POST /auth/logout` ends it (POST only, same-site only). Through real HTTP
// with real cookies, on the memory and Redis stores (server-side: a copied cookie dies at
// logout), the sealed-cookie store, and the classic face.
import { randomUUID } from "node:crypto";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import { afterAll, inject } from "vitest";
import { Controller, Get, Injectable, Module } from "../../src/index.js";
import type { OAuthCallbackHandler, OAuthCallbackResult } from "../../src/oauth/index.js";
import {
  OAuthModule,
  OAuthProviderSource,
  OAuthRoutes,
  OAuthSessionUser,
} from "../../src/oauth/index.js";
import type { OAuthRoutesSession } from "../../src/oauth/OAuthRoutes.js";
import {
  CookieSessionStore,
  MemorySessionStore,
  RedisSessionStore,
  Session,
  SessionModule,
  type SessionStore,
} from "../../src/session/index.js";
import { MockProvider, serveTest, Test } from "../../src/testing/index.js";
import { attributesOf, COOKIE, clears, UNAUTHORIZED } from "../session/support/sessionContract.js";
import { User, UserSession } from "../session/support/sessionServer.js";
import { baseUrlOf } from "../support/baseUrl.js";
import { CookieJar, type JarResponse } from "../support/cookieJar.js";
import { capturingLogger } from "../support/started.js";

/** The app's own origin: the mocked provider's redirect URI is http://localhost/auth/github/callback. */
const APP_ORIGIN = "http://localhost";
const FORBIDDEN = { statusCode: 403, message: "Forbidden" };
const profile = { id: "7", name: "Ada" };

const redisPort = (): number => {
  const redis = inject("redis");
  if ("error" in redis) throw new Error(`No Redis for the Redis tests: ${redis.error}`);
  return redis.port;
};

/** "Sign out everywhere", as an app offers it: every session of the signed-in user ends. */
const Everywhere = HttpLayerRouter.add(
  "POST",
  "/everywhere",
  Effect.gen(function* () {
    const user = yield* UserSession.require;
    yield* UserSession.destroyAllFor(user.id);
    return HttpServerResponse.empty({ status: 204 });
  }),
);

/** The app's user of a sign-in. */
const from: OAuthRoutesSession["from"] = (oauth) =>
  Effect.succeed({ id: oauth.user.id, name: oauth.user.name ?? "" });

interface App {
  readonly url: string;
  readonly logs: ReadonlyArray<string>;
}

/** The routes with `session` on `store`, served on loopback, their log lines kept. */
const startApp = (
  store: Layer.Layer<SessionStore, unknown>,
  session: Omit<OAuthRoutesSession, "from"> = {},
) =>
  Effect.gen(function* () {
    const { logger, lines } = capturingLogger();
    const url = yield* baseUrlOf(
      serveTest(Layer.merge(OAuthRoutes.layer({ session: { ...session, from } }), Everywhere)).pipe(
        Layer.provide(MockProvider.layer({ provider: "github", profile })),
        Layer.provide(UserSession.layer()),
        Layer.provide(store),
        Layer.provide(Logger.replace(Logger.defaultLogger, logger)),
      ),
    );
    return {
      url,
      get logs() {
        return lines.map((line) => line.text);
      },
    } satisfies App;
  });

const http = (jar: CookieJar, method: string, path: string, headers: Record<string, string> = {}) =>
  Effect.promise(() => jar.fetch(method, path, { headers }));

/** Signs in through `/auth/github` and its callback; returns the callback's answer. */
const signIn = (jar: CookieJar, query = "") =>
  Effect.gen(function* () {
    const start = yield* http(jar, "GET", `/auth/github${query}`);
    expect(start.status).toBe(302);
    const state = new URL(start.headers.get("location") ?? "").searchParams.get("state");
    return yield* http(jar, "GET", `/auth/github/callback?state=${state}&code=any`);
  });

/** Signs in; returns the new session cookie's value. */
const signedIn = (jar: CookieJar) =>
  Effect.map(signIn(jar), (done) => {
    expect(done.status).toBe(302);
    const value = jar.get(COOKIE);
    expect(value).toBeDefined();
    return value as string;
  });

const logout = (jar: CookieJar, headers: Record<string, string> = { origin: APP_ORIGIN }) =>
  http(jar, "POST", "/auth/logout", headers);

/** A jar holding a copy of cookie `value`. */
const copyOf = (app: App, value: string) => {
  const copy = new CookieJar(app.url);
  copy.set(COOKIE, value);
  return copy;
};

/** No cookie value in a body, a header other than Set-Cookie, a Location or a log line. */
const expectNothingLeaked = (
  app: App,
  responses: ReadonlyArray<JarResponse>,
  values: ReadonlyArray<string>,
) => {
  for (const value of values) {
    for (const response of responses) {
      expect(response.text).not.toContain(value);
      for (const [name, header] of response.headers) {
        if (name !== "set-cookie") expect(header).not.toContain(value);
      }
    }
    for (const line of app.logs) expect(line).not.toContain(value);
  }
};

const serverSideStores = {
  MemorySessionStore: () => MemorySessionStore.layer(),
  RedisSessionStore: () =>
    RedisSessionStore.layer({
      host: "127.0.0.1",
      port: redisPort(),
      keyPrefix: `test:login:${randomUUID()}:`,
    }),
} as const;

for (const [name, store] of Object.entries(serverSideStores)) {
  describe(`the login loop of the built-in routes, ${name}`, () => {
    it.scopedLive(
      "sign in (302 home, the session cookie set), stay signed in, sign out (204, cleared); GET /auth/session 200 then 401",
      () =>
        Effect.gen(function* () {
          const app = yield* startApp(store());
          const jar = new CookieJar(app.url);
          const anonymous = yield* http(jar, "GET", "/auth/session");
          expect(anonymous.status).toBe(401);
          expect(anonymous.body).toEqual(UNAUTHORIZED);

          const done = yield* signIn(jar);
          expect(done.status).toBe(302);
          expect(done.headers.get("location")).toBe("/");
          expect(done.text).toBe("");
          // The transaction cookie cleared, the session cookie set (check 26's attributes).
          expect(done.setCookies.some((header) => clears(header, "strata_oauth"))).toBe(true);
          const set = done.setCookies.find((header) => header.startsWith(`${COOKIE}=`)) ?? "";
          expect(attributesOf(set).has("httponly")).toBe(true);
          expect(attributesOf(set).get("samesite")).toBe("Lax");

          for (let reload = 0; reload < 2; reload++) {
            const me = yield* http(jar, "GET", "/auth/session");
            expect(me.status).toBe(200);
            expect(me.body).toEqual({ id: "7", name: "Ada" });
            expect(me.headers.get("cache-control")).toBe("no-store");
          }
          const out = yield* logout(jar);
          expect(out.status).toBe(204);
          expect(out.text).toBe("");
          expect(clears(out.setCookies[0])).toBe(true);
          const after = yield* http(jar, "GET", "/auth/session");
          expect(after.status).toBe(401);
          expect(after.body).toEqual(UNAUTHORIZED);
        }),
    );

    it.scopedLive(
      "check 25: a new cookie value at every login through the routes; the first stops working",
      () =>
        Effect.gen(function* () {
          const app = yield* startApp(store());
          const jar = new CookieJar(app.url);
          const first = yield* signedIn(jar);
          const second = yield* signedIn(jar);
          expect(second).not.toBe(first);
          expect((yield* http(jar, "GET", "/auth/session")).status).toBe(200);
          const replayed = yield* http(copyOf(app, first), "GET", "/auth/session");
          expect(replayed.status).toBe(401);
          expect(replayed.body).toEqual(UNAUTHORIZED);
          expect(clears(replayed.setCookies[0])).toBe(true);
        }),
    );

    it.scopedLive(
      "check 29: logout deletes the session: a cookie copied before it is refused after it",
      () =>
        Effect.gen(function* () {
          const app = yield* startApp(store());
          const jar = new CookieJar(app.url);
          const value = yield* signedIn(jar);
          expect((yield* http(copyOf(app, value), "GET", "/auth/session")).status).toBe(200);
          expect((yield* logout(jar)).status).toBe(204);
          const copied = yield* http(copyOf(app, value), "GET", "/auth/session");
          expect(copied.status).toBe(401);
          expect(copied.body).toEqual(UNAUTHORIZED);
          expect(clears(copied.setCookies[0])).toBe(true);
          // Logging out the copy is harmless: 204, cleared.
          const again = yield* logout(copyOf(app, value));
          expect(again.status).toBe(204);
          expect(clears(again.setCookies[0])).toBe(true);
        }),
    );

    it.scopedLive(
      "check 29: logout is POST only: GET /auth/logout is 404 (an unknown provider), the session untouched",
      () =>
        Effect.gen(function* () {
          const app = yield* startApp(store());
          const jar = new CookieJar(app.url);
          yield* signedIn(jar);
          for (const method of ["GET", "PUT", "DELETE"]) {
            const answer = yield* http(jar, method, "/auth/logout", { origin: APP_ORIGIN });
            expect(answer.status, method).toBe(404);
            expect(answer.setCookies, method).toEqual([]);
          }
          expect((yield* http(jar, "GET", "/auth/session")).status).toBe(200);
        }),
    );

    it.scopedLive(
      "check 29: a cross-site logout is refused (403, standard body, no cookie touched) and the session stays valid",
      () =>
        Effect.gen(function* () {
          const app = yield* startApp(store());
          const jar = new CookieJar(app.url);
          yield* signedIn(jar);
          const refused: Array<Record<string, string>> = [
            { origin: "https://evil.example" },
            { origin: "null" },
            { origin: "http://localhost:3000" }, // another port is another origin
            { origin: "http://localhost.evil.example" },
            { origin: `${APP_ORIGIN}, https://evil.example` },
            { origin: "null", "sec-fetch-site": "cross-site" }, // a sandboxed frame
            { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
            { "sec-fetch-site": "cross-site" },
            // A sibling subdomain is same-site, not same-origin.
            { "sec-fetch-site": "same-site" },
          ];
          for (const headers of refused) {
            const answer = yield* logout(jar, headers);
            expect(answer.status, JSON.stringify(headers)).toBe(403);
            expect(answer.body).toEqual(FORBIDDEN);
            expect(answer.setCookies).toEqual([]);
            expect((yield* http(jar, "GET", "/auth/session")).status).toBe(200);
          }
          // Same-origin by Sec-Fetch-Site, the app's origin, or a request that is not a browser
          // page's (neither header: a client holding the cookie itself) may log out.
          const accepted = yield* logout(jar, { "sec-fetch-site": "same-origin" });
          expect(accepted.status).toBe(204);
          // A form on a `Referrer-Policy: no-referrer` page: `Origin: null`, same-origin.
          yield* signedIn(jar);
          const form = yield* logout(jar, { origin: "null", "sec-fetch-site": "same-origin" });
          expect(form.status).toBe(204);
          yield* signedIn(jar);
          expect((yield* logout(jar, {})).status).toBe(204);
          expect((yield* http(jar, "GET", "/auth/session")).status).toBe(401);
        }),
    );

    it.scopedLive(
      "check 29: sign out everywhere ends every session of the user signed in through the routes",
      () =>
        Effect.gen(function* () {
          const app = yield* startApp(store());
          const laptop = new CookieJar(app.url);
          const phone = new CookieJar(app.url);
          yield* signedIn(laptop);
          const phoneValue = yield* signedIn(phone);
          expect((yield* http(laptop, "POST", "/everywhere")).status).toBe(204);
          for (const browser of [laptop, phone, copyOf(app, phoneValue)]) {
            const answer = yield* http(browser, "GET", "/auth/session");
            expect(answer.status).toBe(401);
            expect(answer.body).toEqual(UNAUTHORIZED);
          }
        }),
    );

    it.scopedLive(
      "check 30: no session id or cookie value in a response body, another header, a Location or a log line",
      () =>
        Effect.gen(function* () {
          const app = yield* startApp(store());
          const jar = new CookieJar(app.url);
          const responses: Array<JarResponse> = [];
          const values: Array<string> = [];
          const done = yield* signIn(jar);
          responses.push(done);
          values.push(jar.get(COOKIE) as string);
          responses.push(yield* http(jar, "GET", "/auth/session"));
          responses.push(yield* logout(jar, { origin: "https://evil.example" }));
          responses.push(yield* signIn(jar));
          values.push(jar.get(COOKIE) as string);
          responses.push(yield* logout(jar));
          responses.push(yield* http(copyOf(app, values[1] as string), "GET", "/auth/session"));
          expect(new Set(values).size).toBe(2);
          expectNothingLeaked(app, responses, values);
        }),
    );
  });
}

describe("the login loop of the built-in routes", () => {
  it.scopedLive("a validated successRedirect is where the browser lands after signing in", () =>
    Effect.gen(function* () {
      const app = yield* startApp(MemorySessionStore.layer());
      const jar = new CookieJar(app.url);
      const done = yield* signIn(jar, "?successRedirect=%2Fwelcome");
      expect(done.status).toBe(302);
      expect(done.headers.get("location")).toBe("/welcome");
      expect((yield* http(jar, "GET", "/auth/session")).status).toBe(200);
      const refused = yield* http(
        jar,
        "GET",
        "/auth/github?successRedirect=https%3A%2F%2Fevil.example",
      );
      expect(refused.status).toBe(400);
    }),
  );

  it.scopedLive(
    "session.origins admits another origin of the app; logoutRedirect answers a form with a 303",
    () =>
      Effect.gen(function* () {
        const app = yield* startApp(MemorySessionStore.layer(), {
          origins: ["https://app.example"],
          logoutRedirect: "/",
        });
        const jar = new CookieJar(app.url);
        yield* signedIn(jar);
        const out = yield* logout(jar, { origin: "https://app.example" });
        expect(out.status).toBe(303);
        expect(out.headers.get("location")).toBe("/");
        expect(clears(out.setCookies[0])).toBe(true);
      }),
  );

  it.scopedLive(
    "the sealed-cookie store: logout clears the cookie (a copy lives until it expires, documented)",
    () =>
      Effect.gen(function* () {
        const app = yield* startApp(
          CookieSessionStore.layer({ secret: "a-session-secret-of-32-characters!!" }),
        );
        const jar = new CookieJar(app.url);
        const value = yield* signedIn(jar);
        expect((yield* logout(jar)).status).toBe(204);
        expect((yield* http(jar, "GET", "/auth/session")).status).toBe(401);
        expect((yield* http(copyOf(app, value), "GET", "/auth/session")).status).toBe(200);
      }),
  );

  it.scopedLive(
    "session: {} signs in the profile as an OAuthSessionUser, no unverified email",
    () =>
      Effect.gen(function* () {
        const ProfileSession = Session.make(OAuthSessionUser);
        const url = yield* baseUrlOf(
          serveTest(OAuthRoutes.layer({ session: {} })).pipe(
            Layer.provide(
              MockProvider.layer({
                provider: "github",
                profile: { id: "7", name: "Ada", email: "ada@example.com", emailVerified: false },
              }),
            ),
            Layer.provide(ProfileSession.layer()),
            Layer.provide(MemorySessionStore.layer()),
          ),
        );
        const jar = new CookieJar(url);
        expect((yield* signIn(jar)).status).toBe(302);
        const me = yield* http(jar, "GET", "/auth/session");
        expect(me.body).toEqual({ id: "github:7", provider: "github", subject: "7", name: "Ada" });
      }),
  );

  it.effect(
    "startup fails with a clear message for a provider named session or logout, and for session without a Session service",
    () =>
      Effect.gen(function* () {
        for (const provider of ["session", "logout"]) {
          const exit = yield* Effect.exit(
            Effect.scoped(
              Layer.build(
                serveTest(OAuthRoutes.layer({ session: { from } })).pipe(
                  Layer.provide(MockProvider.layer({ provider })),
                  Layer.provide(UserSession.layer()),
                  Layer.provide(MemorySessionStore.layer()),
                ),
              ),
            ),
          );
          expect(Exit.isFailure(exit)).toBe(true);
          expect(String(exit)).toContain(`The provider name \\"${provider}\\" is reserved`);
        }
        const missing = yield* Effect.exit(
          Effect.scoped(
            Layer.build(
              serveTest(OAuthRoutes.layer({ session: { from } })).pipe(
                Layer.provide(MockProvider.layer({ provider: "github" })),
              ),
            ),
          ),
        );
        expect(String(missing)).toContain("needs the app's Session service");
      }),
  );
});

// The classic face: OAuthModule.forRoot({ session: true }) beside SessionModule.forRoot; the
// callback handler's value is the session data.

@Injectable()
class SignInUser implements OAuthCallbackHandler {
  handle(result: OAuthCallbackResult) {
    return { id: `app-${result.user.id}`, name: result.user.name ?? "" };
  }
}

@Controller("home")
class HomeController {
  @Get()
  home() {
    return { home: true };
  }
}

const providers = {
  github: {
    clientId: "id",
    clientSecret: "secret",
    redirectUri: "http://localhost/auth/github/callback",
  },
};

const classicApp = async (sessions: boolean, provider = "github") => {
  @Module({
    imports: [
      OAuthModule.forRoot({
        providers:
          provider === "github"
            ? providers
            : { [provider]: { type: "oidc", issuer: "https://idp.example", ...providers.github } },
        callbackHandler: SignInUser,
        session: true,
      }),
      ...(sessions ? [SessionModule.forRoot({ schema: User, store: "memory" })] : []),
    ],
    controllers: [HomeController],
    providers: [SignInUser],
  })
  class AppModule {}
  const module = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(OAuthProviderSource)
    .useValue(MockProvider.source({ provider, profile }))
    .compile();
  const app = module.createStrataApp();
  closing.push(async () => {
    await app.close();
    await module.close();
  });
  return app;
};
const closing: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closing) await close();
});

describe("the login loop on the classic face", () => {
  it("OAuthModule.forRoot({ session: true }): the handler's user signed in, /auth/session, logout", async () => {
    const app = await classicApp(true);
    await app.listen(0, "127.0.0.1");
    const jar = new CookieJar(app.getUrl());
    const start = await jar.fetch("GET", "/auth/github");
    const state = new URL(start.headers.get("location") ?? "").searchParams.get("state");
    const done = await jar.fetch("GET", `/auth/github/callback?state=${state}&code=any`);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    const value = jar.get(COOKIE) as string;
    expect((await jar.fetch("GET", "/auth/session")).body).toEqual({ id: "app-7", name: "Ada" });
    const crossSite = await jar.fetch("POST", "/auth/logout", {
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toEqual(FORBIDDEN);
    const out = await jar.fetch("POST", "/auth/logout", { headers: { origin: APP_ORIGIN } });
    expect(out.status).toBe(204);
    expect(clears(out.setCookies[0])).toBe(true);
    const copy = new CookieJar(app.getUrl());
    copy.set(COOKIE, value);
    expect((await copy.fetch("GET", "/auth/session")).status).toBe(401);
    expect((await jar.fetch("GET", "/home")).body).toEqual({ home: true });
  });

  it("without SessionModule, or with a provider named logout, the app does not start, saying why", async () => {
    // The routes are compiled when the app is made (or, at the latest, when it listens).
    const start = (sessions: boolean, provider?: string) =>
      classicApp(sessions, provider).then((app) => app.listen(0, "127.0.0.1"));
    await expect(start(false)).rejects.toThrow(
      "OAuthModule: `session` needs sessions: import SessionModule.forRoot",
    );
    await expect(start(true, "logout")).rejects.toThrow('The provider name "logout" is reserved');
  });
});
