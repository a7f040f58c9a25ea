// The pipeline (`OAuth`) over mocked provider Layers: deterministic randomness
// (SecureRandom.layerTest) and time (TestClock).
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import { describe, expect, it, layer } from "@effect/vitest";
import * as ConfigProvider from "effect/ConfigProvider";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import * as TestClock from "effect/TestClock";
import {
  OAuth,
  OAuthProviders,
  type OAuthTransaction,
  oauthConfigFromEnv,
  SecureRandom,
} from "../../src/oauth/index.js";
import { nonceHash } from "../../src/oauth/OAuthAuthorization.js";
import { validateState } from "../../src/oauth/StateCheck.js";
import { type MockCalls, mockProviderLayer } from "./support/mockProvider.js";

const calls: MockCalls = { exchanges: [], profiles: 0 };

const Pipeline = OAuth.layerFromProviders.pipe(
  Layer.provide(
    OAuthProviders.fromLayers({
      google: mockProviderLayer("google", {}, calls),
      github: mockProviderLayer("github", {}, calls),
      facebook: mockProviderLayer("facebook", { refreshToken: undefined }, calls),
    }),
  ),
  Layer.provideMerge(SecureRandom.layerTest("pipeline")),
);

const tenMinutes = 10 * 60 * 1000;

layer(Pipeline)("OAuth pipeline (mocked providers)", (it) => {
  it.effect("authorize: fresh 256-bit state, PKCE verifier and nonce; the URL has no secret", () =>
    Effect.gen(function* () {
      const oauth = yield* OAuth;
      expect(oauth.providers).toEqual(["google", "github", "facebook"]);
      const a = yield* oauth.authorize("google");
      const b = yield* oauth.authorize("google");
      expect(a.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(a.state).not.toBe(b.state);
      expect(a.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(a.codeVerifier).not.toBe(b.codeVerifier);
      expect(a.transaction).toMatchObject({ provider: "google", state: a.state, redirects: {} });
      const nonce = a.transaction.nonce ?? "";
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const url = new URL(a.url);
      expect(url.searchParams.get("state")).toBe(a.state);
      expect(url.searchParams.get("nonce")).toBe(nonceHash(nonce));
      expect(a.url).not.toContain(nonce);
      expect(a.url).not.toContain(a.codeVerifier ?? "");
      expect(url.searchParams.get("scope")).toBe("openid profile email");
    }),
  );

  it.effect(
    "authorize: non-PKCE providers get no verifier; scopes, state and offline are passed",
    () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth;
        const a = yield* oauth.authorize("github", {
          state: "caller-state",
          scopes: ["read:user", "user:email"],
          offline: true,
        });
        expect(a.codeVerifier).toBeUndefined();
        expect(a.transaction.codeVerifier).toBeUndefined();
        expect(a.transaction.nonce).toBeUndefined();
        expect(a.state).toBe("caller-state");
        const url = new URL(a.url);
        expect(url.searchParams.get("scope")).toBe("read:user user:email");
        expect(url.searchParams.get("offline")).toBe("1");
      }),
  );

  it.effect("authorize: the transaction expires 10 minutes after the Clock's now", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(1_000_000);
      const a = yield* (yield* OAuth).authorize("github");
      expect(a.transaction.expiry).toBe(1_000_000 + tenMinutes);
    }),
  );

  it.effect("unknown and prototype names are UnknownProvider", () =>
    Effect.gen(function* () {
      const oauth = yield* OAuth;
      for (const name of ["twitter", "__proto__", "constructor", "toString", "", "GOOGLE"]) {
        const error = yield* Effect.flip(oauth.authorize(name));
        expect(error._tag).toBe("UnknownProvider");
      }
    }),
  );

  const started = (provider = "google") =>
    Effect.flatMap(OAuth, (oauth) => oauth.authorize(provider));

  it.effect("callback: a matching state exchanges the code with the verifier and nonce hash", () =>
    Effect.gen(function* () {
      const oauth = yield* OAuth;
      const a = yield* started();
      calls.exchanges.length = 0;
      const session = yield* oauth.callback(
        "google",
        { state: a.state, code: "good" },
        Option.some(a.transaction),
      );
      expect(session.user).toEqual({
        id: "google-user",
        email: "google@example.com",
        name: "Mock User",
      });
      expect(Redacted.value(session.tokens.accessToken)).toBe("google-access");
      expect(calls.exchanges).toEqual([
        {
          code: "good",
          codeVerifier: a.codeVerifier,
          nonce: nonceHash(a.transaction.nonce ?? ""),
        },
      ]);
    }),
  );

  it.effect("callback: every bad state is InvalidState, and no code is exchanged", () =>
    Effect.gen(function* () {
      const oauth = yield* OAuth;
      const a = yield* started();
      const tx = Option.some(a.transaction);
      calls.exchanges.length = 0;
      const reasons: Array<string> = [];
      const attempts: Array<[string, Record<string, unknown>, Option.Option<OAuthTransaction>]> = [
        ["google", { state: a.state, code: "good" }, Option.none()],
        ["google", { code: "good" }, tx],
        ["google", { state: "", code: "good" }, tx],
        ["google", { state: [a.state, a.state], code: "good" }, tx],
        ["google", { state: `${a.state}x`, code: "good" }, tx],
        ["github", { state: a.state, code: "good" }, tx],
        ["google", { state: a.state, code: "good", iss: "https://evil.example" }, tx],
        ["google", { state: a.state, code: "good", iss: ["https://google.example"] }, tx],
      ];
      for (const [provider, params, transaction] of attempts) {
        const error = yield* Effect.flip(oauth.callback(provider, params, transaction));
        expect(error._tag).toBe("InvalidState");
        if (error._tag === "InvalidState") reasons.push(error.reason);
      }
      expect(reasons).toEqual([
        "missing_transaction",
        "missing_state",
        "missing_state",
        "missing_state",
        "state_mismatch",
        "wrong_provider",
        "issuer_mismatch",
        "issuer_mismatch",
      ]);
      expect(calls.exchanges).toEqual([]);
    }),
  );

  it.effect("callback: the right iss is accepted", () =>
    Effect.gen(function* () {
      const a = yield* started();
      const session = yield* (yield* OAuth).callback(
        "google",
        { state: a.state, code: "good", iss: "https://google.example" },
        Option.some(a.transaction),
      );
      expect(session.provider).toBe("google");
    }),
  );

  it.effect("callback: expired after 10 minutes", () =>
    Effect.gen(function* () {
      const a = yield* started();
      yield* TestClock.adjust("10 minutes");
      const error = yield* Effect.flip(
        (yield* OAuth).callback(
          "google",
          { state: a.state, code: "good" },
          Option.some(a.transaction),
        ),
      );
      expect(error).toMatchObject({ _tag: "InvalidState", reason: "expired" });
    }),
  );

  it.effect("callback: error= only after the state check; only standard codes are kept", () =>
    Effect.gen(function* () {
      const oauth = yield* OAuth;
      const a = yield* started();
      const tx = Option.some(a.transaction);
      const beforeState = yield* Effect.flip(
        oauth.callback("google", { state: "wrong", error: "access_denied" }, tx),
      );
      expect(beforeState._tag).toBe("InvalidState");
      const denied = yield* Effect.flip(
        oauth.callback("google", { state: a.state, error: "access_denied" }, tx),
      );
      expect(denied).toMatchObject({ _tag: "ProviderErrorResponse", oauthError: "access_denied" });
      const odd = yield* Effect.flip(
        oauth.callback("google", { state: a.state, error: "<script>alert(1)</script>" }, tx),
      );
      expect(odd).toMatchObject({ _tag: "ProviderErrorResponse", oauthError: "other" });
      const noCode = yield* Effect.flip(oauth.callback("google", { state: a.state }, tx));
      expect(noCode).toMatchObject({ _tag: "CodeRejected", oauthError: "invalid_request" });
      const badCode = yield* Effect.flip(
        oauth.callback("google", { state: a.state, code: "bad" }, tx),
      );
      expect(badCode).toMatchObject({ _tag: "CodeRejected", oauthError: "invalid_grant" });
    }),
  );

  it.effect("exchange: a PKCE provider without verifier is refused before any request", () =>
    Effect.gen(function* () {
      calls.exchanges.length = 0;
      const error = yield* Effect.flip((yield* OAuth).exchange("google", { code: "good" }));
      expect(error).toMatchObject({ _tag: "InvalidState", reason: "missing_verifier" });
      expect(calls.exchanges).toEqual([]);
      const session = yield* (yield* OAuth).exchange("github", { code: "good" });
      expect(session.user.id).toBe("github-user");
    }),
  );

  it.effect("refresh and revoke: UnsupportedOperation where the provider has none", () =>
    Effect.gen(function* () {
      const oauth = yield* OAuth;
      const refresh = yield* Effect.flip(oauth.refresh("facebook", Redacted.make("r")));
      expect(refresh).toMatchObject({ _tag: "UnsupportedOperation", operation: "refresh" });
      const revoke = yield* Effect.flip(oauth.revoke("github", Redacted.make("t")));
      expect(revoke).toMatchObject({ _tag: "UnsupportedOperation", operation: "revoke" });
    }),
  );
});

describe("validateState", () => {
  it("is true only for the same non-empty string", () => {
    expect(validateState("abc", "abc")).toBe(true);
    expect(validateState("abc", "abd")).toBe(false);
    expect(validateState("abc", "abcd")).toBe(false);
    expect(validateState("", "")).toBe(false);
    expect(validateState(undefined, "abc")).toBe(false);
    expect(validateState(["abc"], "abc")).toBe(false);
    expect(validateState("abc", undefined)).toBe(false);
    expect(validateState(123, 123)).toBe(false);
  });
});

describe("configuration from the environment", () => {
  const read = (env: Record<string, string>) =>
    Effect.withConfigProvider(
      oauthConfigFromEnv,
      ConfigProvider.fromMap(new Map(Object.entries(env))),
    );

  it.effect("configures the providers whose <PROVIDER>_CLIENT_ID is set", () =>
    Effect.gen(function* () {
      const config = yield* read({
        GITHUB_CLIENT_ID: "gh",
        GITHUB_CLIENT_SECRET: "gh-secret",
        TWITTER_CLIENT_ID: "tw",
        MICROSOFT_CLIENT_ID: "ms",
        MICROSOFT_TENANT: "contoso",
        OAUTH_REDIRECT_URI: "https://app.example/auth/{provider}/callback",
        TWITTER_REDIRECT_URI: "https://app.example/tw",
        OAUTH_TIMEOUT: "5 seconds",
      });
      expect(Object.keys(config.providers).sort()).toEqual(["github", "microsoft", "twitter"]);
      expect(config.providers.github?.redirectUri).toBe("https://app.example/auth/github/callback");
      expect(config.providers.twitter?.redirectUri).toBe("https://app.example/tw");
      expect(config.providers.twitter?.clientSecret).toBeNull();
      expect(config.providers.microsoft?.tenant).toBe("contoso");
      const secret = config.providers.github?.clientSecret;
      expect(Redacted.isRedacted(secret)).toBe(true);
      expect(String(secret)).not.toContain("gh-secret");
      expect(config.timeout).toBeDefined();
    }),
  );

  it.effect("a confidential provider without its secret is a configuration error", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        read({ GOOGLE_CLIENT_ID: "g", OAUTH_REDIRECT_URI: "https://app.example/cb" }),
      );
      expect(String(error)).toContain("GOOGLE_CLIENT_SECRET");
      const noRedirect = yield* Effect.flip(
        read({ GITHUB_CLIENT_ID: "g", GITHUB_CLIENT_SECRET: "s" }),
      );
      expect(String(noRedirect)).toContain("OAUTH_REDIRECT_URI");
      // A secret without its id: an error naming the id, never a provider silently left out.
      const noId = yield* Effect.flip(
        read({ GITHUB_CLIENT_SECRET: "hush-1234", OAUTH_REDIRECT_URI: "https://app.example/cb" }),
      );
      expect(String(noId)).toContain("GITHUB_CLIENT_ID is required when GITHUB_CLIENT_SECRET");
      expect(String(noId)).not.toContain("hush-1234");
    }),
  );

  it.effect("OAuth.layerConfig builds the pipeline from the environment", () =>
    Effect.gen(function* () {
      const oauth = yield* OAuth;
      expect(oauth.providers).toEqual(["github"]);
      const a = yield* oauth.authorize("github");
      expect(new URL(a.url).searchParams.get("client_id")).toBe("gh-env");
    }).pipe(
      Effect.provide(
        OAuth.layerConfig.pipe(
          Layer.provide(
            Layer.setConfigProvider(
              ConfigProvider.fromMap(
                new Map([
                  ["GITHUB_CLIENT_ID", "gh-env"],
                  ["GITHUB_CLIENT_SECRET", "s"],
                  ["OAUTH_REDIRECT_URI", "http://localhost:3000/auth/{provider}/callback"],
                ]),
              ),
            ),
          ),
          Layer.provide(FetchHttpClient.layer),
        ),
      ),
    ),
  );
});

describe("configuration checks", () => {
  it.effect("an unknown provider name in the configuration fails the layer", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Effect.provide(
          OAuth,
          OAuth.layer({
            providers: { gitlab: { clientId: "x" } } as never,
          }).pipe(Layer.provide(FetchHttpClient.layer)),
        ),
      );
      expect(error).toMatchObject({ _tag: "OAuthConfigError" });
      expect(String(error.message)).toContain("gitlab");
    }),
  );
});
