// Templated authorization URLs must be exactly what each provider builds itself.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import { authorizationUrls } from "../../src/oauth/AuthorizationUrlTemplate.js";
import {
  FacebookProvider,
  GitHubProvider,
  GoogleProvider,
  MicrosoftProvider,
  type OAuthProviderService,
  TwitterProvider,
} from "../../src/oauth/index.js";
import { nonceHash } from "../../src/oauth/OAuthAuthorization.js";
import { credentials } from "./fixtures.js";
import { live } from "./support/liveProvider.js";
import { mockProvider } from "./support/mockProvider.js";

const token = () => randomBytes(32).toString("base64url");

const overridden = {
  ...credentials("google"),
  endpoints: { authorization: "http://127.0.0.1:9/o/auth", token: "http://127.0.0.1:9/token" },
};

const providers = {
  google: live(GoogleProvider.make(credentials("google"))),
  "google at overridden endpoints": live(GoogleProvider.make(overridden)),
  microsoft: live(MicrosoftProvider.make({ ...credentials("microsoft"), tenant: "common" })),
  github: live(GitHubProvider.make(credentials("github"))),
  facebook: live(FacebookProvider.make(credentials("facebook"))),
  twitter: live(TwitterProvider.make(credentials("twitter"))),
};

/** Requests of every shape a provider is asked for. */
const requests = (p: OAuthProviderService) =>
  [p.defaultScopes, ["openid"], ["a b", "c"], []].flatMap((scopes) =>
    [false, true].map((offline) => ({
      state: token(),
      scopes,
      ...(p.pkce ? { codeVerifier: token() } : {}),
      ...(p.oidc ? { nonce: nonceHash(token()) } : {}),
      offline,
    })),
  );

describe("authorization URL templates", () => {
  for (const [name, make] of Object.entries(providers)) {
    it.effect(`${name}: every URL equals the provider's own`, () =>
      Effect.gen(function* () {
        const provider = yield* make;
        const urls = authorizationUrls(provider);
        for (let round = 0; round < 5; round++) {
          for (const request of requests(provider)) {
            const expected = (yield* provider.authorizationUrl(request)).toString();
            expect(yield* urls.url(request)).toBe(expected);
          }
        }
      }),
    );
  }

  it.effect(
    "known: the URL at once for a learned shape only, never for a non-base64url state",
    () =>
      Effect.gen(function* () {
        const provider = yield* providers.google;
        const urls = authorizationUrls(provider);
        const scopes = ["openid", "email"];
        const request = () => ({
          state: token(),
          scopes,
          codeVerifier: token(),
          nonce: nonceHash(token()),
        });
        const first = request();
        expect(urls.known(first)).toBeUndefined();
        yield* urls.url(first);
        const second = request();
        expect(urls.known(second)).toBe((yield* provider.authorizationUrl(second)).toString());
        expect(urls.known({ ...second, offline: true })).toBeUndefined();
        expect(urls.known({ ...second, scopes: ["openid"] })).toBeUndefined();
        expect(urls.known({ ...second, state: "a b" })).toBeUndefined();
        // The template keeps its own copy of the scopes: changing the caller's list changes the shape.
        scopes.push("profile");
        const third = request();
        expect(urls.known(third)).toBeUndefined();
        expect(yield* urls.url(third)).toBe((yield* provider.authorizationUrl(third)).toString());
      }),
  );

  it.effect("a provider whose URLs are not a template of the request builds each one", () =>
    Effect.gen(function* () {
      let calls = 0;
      const base = mockProvider("github");
      const counting = {
        ...base,
        authorizationUrl: (request: Parameters<typeof base.authorizationUrl>[0]) =>
          Effect.map(base.authorizationUrl(request), (url) => {
            url.searchParams.set("n", String(++calls));
            return url;
          }),
      };
      const urls = authorizationUrls(counting);
      const request = { state: token(), scopes: ["user"] };
      const first = yield* urls.url(request);
      const second = yield* urls.url(request);
      expect(new URL(first).searchParams.get("n")).not.toBe(new URL(second).searchParams.get("n"));
      expect(new URL(second).searchParams.get("state")).toBe(request.state);
    }),
  );

  it.effect("a plain (not S256) challenge is never templated: the verifier is in the URL", () =>
    Effect.gen(function* () {
      const base = mockProvider("twitter");
      const plain = {
        ...base,
        authorizationUrl: (request: Parameters<typeof base.authorizationUrl>[0]) =>
          Effect.map(base.authorizationUrl(request), (url) => {
            url.searchParams.set("code_challenge", request.codeVerifier ?? "");
            return url;
          }),
      };
      const urls = authorizationUrls(plain);
      for (let i = 0; i < 3; i++) {
        const request = { state: token(), scopes: ["tweet.read"], codeVerifier: token() };
        const url = new URL(yield* urls.url(request));
        expect(url.searchParams.get("code_challenge")).toBe(request.codeVerifier);
        expect(url.searchParams.get("state")).toBe(request.state);
      }
    }),
  );

  it.effect("a caller's state that is not base64url is encoded by the provider", () =>
    Effect.gen(function* () {
      const provider = yield* providers.github;
      const urls = authorizationUrls(provider);
      yield* urls.url({ state: token(), scopes: ["user:email"] });
      const url = yield* urls.url({ state: "a b&c=d/é", scopes: ["user:email"] });
      expect(new URL(url).searchParams.get("state")).toBe("a b&c=d/é");
      expect(url).toBe(
        (yield* provider.authorizationUrl({
          state: "a b&c=d/é",
          scopes: ["user:email"],
        })).toString(),
      );
    }),
  );
});
