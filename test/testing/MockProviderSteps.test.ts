// effect-strata/testing's MockProvider beyond the README's example: every failure step, the real
// checks (state, cookie, PKCE, iss) around the mock, custom providers, one provider Layer.
import * as Cookies from "@effect/platform/Cookies";
import * as HttpClient from "@effect/platform/HttpClient";
import { describe, expect, it, layer } from "@effect/vitest";
import { Effect, Layer, Option, Redacted } from "effect";
import { OAuth, OAuthProviders, OAuthRoutes } from "effect-strata/oauth";
import { MockProvider, serveTest } from "effect-strata/testing";

const FAILING = MockProvider.layer(
  { provider: "google", fail: "code_rejected" },
  { provider: "github", fail: "timeout" },
  { provider: "facebook", fail: "unreachable" },
  { provider: "microsoft", fail: "profile_error" },
  { provider: "twitter" },
  { provider: "keycloak", redirectUri: "https://app.example/auth/keycloak/callback" },
);

/** A started login: the provider URL, its state and the cookie to send back. */
const startLogin = (provider: string) =>
  Effect.gen(function* () {
    const start = yield* HttpClient.get(`/auth/${provider}`);
    expect(start.status).toBe(302);
    const url = new URL(start.headers.location ?? "");
    return {
      url,
      state: url.searchParams.get("state") ?? "",
      cookie: Cookies.toCookieHeader(start.cookies),
      setCookie: start.headers["set-cookie"] ?? "",
    };
  });

/** The callback request; its status, body and raw Set-Cookie. */
const finish = (provider: string, query: string, cookie?: string) =>
  Effect.gen(function* () {
    const response = yield* HttpClient.get(`/auth/${provider}/callback${query}`, {
      headers: cookie === undefined ? {} : { cookie },
    });
    const text = yield* response.text;
    return {
      status: response.status,
      headers: response.headers,
      cookies: response.cookies,
      text,
      body: text === "" ? undefined : (JSON.parse(text) as unknown),
    };
  });

const INVALID_STATE = { statusCode: 401, message: "Invalid state", error: "invalid_state" };

layer(serveTest(OAuthRoutes.layer()).pipe(Layer.provide(FAILING)))(
  "MockProvider: failures and the real checks",
  (it) => {
    const failures = [
      { provider: "google", fail: "code_rejected", status: 401, error: "code_rejected" },
      { provider: "github", fail: "timeout", status: 504, error: "provider_timeout" },
      { provider: "facebook", fail: "unreachable", status: 502, error: "provider_unreachable" },
      { provider: "microsoft", fail: "profile_error", status: 502, error: "profile_fetch_failed" },
    ] as const;
    for (const { provider, fail, status, error } of failures) {
      it.effect(
        `fail: "${fail}" answers ${status} ${error}, clears the cookie, leaks no token`,
        () =>
          Effect.gen(function* () {
            const login = yield* startLogin(provider);
            const done = yield* finish(provider, `?state=${login.state}&code=c`, login.cookie);
            expect(done.status).toBe(status);
            expect(done.body).toMatchObject({ statusCode: status, error });
            expect(Object.keys(done.body as object).sort()).toEqual([
              "error",
              "message",
              "statusCode",
            ]);
            expect(done.headers["cache-control"]).toBe("no-store");
            const cleared = Cookies.get(done.cookies, "strata_oauth");
            expect(cleared._tag === "Some" && cleared.value.value).toBe("");
            expect(done.text).not.toContain("mock-");
            expect(done.text).not.toContain(login.state);
          }),
      );
    }

    it.effect("signs in the default profile (emailVerified included) with the real result", () =>
      Effect.gen(function* () {
        const login = yield* startLogin("twitter");
        const done = yield* finish("twitter", `?state=${login.state}&code=c`, login.cookie);
        expect(done.status).toBe(200);
        expect(done.body).toEqual({
          accessToken: "mock-twitter-access-token",
          expiresAt: expect.any(String),
          user: MockProvider.DEFAULT_PROFILE,
        });
        expect(MockProvider.DEFAULT_PROFILE.emailVerified).toBe(true);
      }),
    );

    it.effect(
      "the authorization URL is the real provider's, with its S256 challenge; the cookie is the real one",
      () =>
        Effect.gen(function* () {
          const login = yield* startLogin("twitter");
          expect(`${login.url.origin}${login.url.pathname}`).toBe(
            "https://twitter.com/i/oauth2/authorize",
          );
          expect(login.url.searchParams.get("code_challenge_method")).toBe("S256");
          expect(login.url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
          expect(login.url.searchParams.get("redirect_uri")).toBe(
            "http://localhost/auth/twitter/callback",
          );
          expect(login.setCookie).toMatch(
            /^strata_oauth=[^;]+; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/,
          );
        }),
    );

    it.effect("check 2: without the transaction cookie the callback is 401 Invalid state", () =>
      Effect.gen(function* () {
        const login = yield* startLogin("twitter");
        const done = yield* finish("twitter", `?state=${login.state}&code=c`);
        expect(done).toMatchObject({ status: 401, body: INVALID_STATE });
      }),
    );

    it.effect("check 3: a callback replayed after a sign-in is 401 Invalid state", () =>
      Effect.gen(function* () {
        const login = yield* startLogin("twitter");
        const query = `?state=${login.state}&code=c`;
        expect((yield* finish("twitter", query, login.cookie)).status).toBe(200);
        expect(yield* finish("twitter", query, login.cookie)).toMatchObject({
          status: 401,
          body: INVALID_STATE,
        });
      }),
    );

    it.effect("check 5: a different state is 401 Invalid state", () =>
      Effect.gen(function* () {
        const login = yield* startLogin("twitter");
        const done = yield* finish("twitter", "?state=forged&code=c", login.cookie);
        expect(done).toMatchObject({ status: 401, body: INVALID_STATE });
      }),
    );

    it.effect(
      "check 6: a twitter state at the google callback is 401 Invalid state, checked before the mocked exchange",
      () =>
        Effect.gen(function* () {
          const login = yield* startLogin("twitter");
          // google's mock rejects every code: an invalid_state proves the state came first.
          const done = yield* finish("google", `?state=${login.state}&code=c`, login.cookie);
          expect(done).toMatchObject({ status: 401, body: INVALID_STATE });
        }),
    );

    it.effect("an unmocked provider is 404", () =>
      Effect.gen(function* () {
        expect((yield* HttpClient.get("/auth/gitlab")).status).toBe(404);
      }),
    );

    it.effect(
      "a custom OpenID provider: S256 and nonce, https redirect gives the __Host- cookie, check 7: a wrong iss is refused",
      () =>
        Effect.gen(function* () {
          const login = yield* startLogin("keycloak");
          expect(`${login.url.origin}${login.url.pathname}`).toBe(
            "https://keycloak.example/authorize",
          );
          expect(login.url.searchParams.get("code_challenge_method")).toBe("S256");
          expect(login.url.searchParams.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
          expect(login.setCookie).toMatch(/^__Host-strata_oauth=[^;]+;.* Secure;/);
          const wrong = yield* finish(
            "keycloak",
            `?state=${login.state}&code=c&iss=https://evil.example`,
            login.cookie,
          );
          expect(wrong).toMatchObject({ status: 401, body: INVALID_STATE });
          const again = yield* startLogin("keycloak");
          const done = yield* finish(
            "keycloak",
            `?state=${again.state}&code=c&iss=https://keycloak.example`,
            again.cookie,
          );
          expect(done.status).toBe(200);
        }),
    );
  },
);

layer(
  OAuth.layerFromProviders.pipe(
    Layer.provide(
      OAuthProviders.fromLayers({
        github: MockProvider.provider({ provider: "github", profile: { id: "7", name: "Grace" } }),
      }),
    ),
  ),
)("MockProvider.provider: one mocked provider Layer in a registry", (it) => {
  it.effect("the pipeline signs in its profile; the tokens stay Redacted", () =>
    Effect.gen(function* () {
      const oauth = yield* OAuth;
      const started = yield* oauth.authorize("github");
      const session = yield* oauth.callback(
        "github",
        { state: started.state, code: "c" },
        Option.some(started.transaction),
      );
      expect(session.user).toEqual({ id: "7", name: "Grace" });
      expect(String(session.tokens.accessToken)).toBe("<redacted>");
      expect(Redacted.value(session.tokens.accessToken)).toBe(MockProvider.accessTokenOf("github"));
    }),
  );
});

describe("MockProvider names", () => {
  it.effect("a name no provider can have fails the Layer with an OAuthConfigError", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Effect.scoped(Layer.build(MockProvider.layer({ provider: "Not A Name" }))),
      );
      expect(error._tag).toBe("OAuthConfigError");
      expect(error.message).toContain('"Not A Name" is not a provider name');
    }),
  );
});
