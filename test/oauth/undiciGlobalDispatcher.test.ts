// Token and profile requests after an app loaded `@effect/platform-node`'s HTTP server (which
// `StrataServer.layerNodePlatform` imports, and NodeHttpClient too): that loads undici 7, which
// installs its own Agent as the global dispatcher that node 20's built-in fetch (undici 6)
// then uses. undici 7 refuses the `content-length: N, N` that node's fetch sends when a
// request sets the header itself (node's fetch appends its own), as arctic's token requests
// do: "invalid content-length header". This file runs in its own worker, so the replaced
// dispatcher does not leak into other tests.
import "@effect/platform-node/NodeHttpServer";
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import { Agent } from "undici";
import {
  FacebookProvider,
  GitHubProvider,
  GoogleProvider,
  MicrosoftProvider,
  OidcProvider,
  TwitterProvider,
} from "../../src/oauth/index.js";
import {
  ACCESS_TOKEN,
  credentials,
  fullTokens,
  REDIRECT,
  REFRESH_TOKEN,
  SECRET,
} from "./fixtures.js";
import { VERIFIER } from "./support/liveProvider.js";
import { type LoopbackIdp, openIdIssuer, startLoopbackIdp } from "./support/loopbackIdp.js";

const globalDispatcher = () =>
  (globalThis as Record<symbol, unknown>)[Symbol.for("undici.globalDispatcher.1")];

// What the app has before any OAuth request.
const nodeFetch = globalThis.fetch;
const undiciAgent = globalDispatcher() as object | undefined;

let idp: LoopbackIdp;

beforeAll(async () => {
  idp = await startLoopbackIdp();
});
afterAll(() => idp.close());

/** Every endpoint of a provider on the loopback IdP. */
const endpoints = () => ({
  authorization: `${idp.origin}/authorize`,
  token: `${idp.origin}/token`,
  revocation: `${idp.origin}/revoke`,
  api: `${idp.origin}/api`,
});

const settings = { timeout: "5 seconds" } as const;

const tokenForms = () =>
  idp.seen
    .filter((s) => s.method === "POST" && s.path === "/token")
    .map((s) => Object.fromEntries(new URLSearchParams(s.body)));

describe("after @effect/platform-node loaded undici 7", () => {
  it("the global dispatcher is undici 7's on Node 20 (the condition under test), node's own after", () => {
    // From Node 22 on, node's fetch installs its own Agent first (undici 6 on 22, 7 on 24), and
    // the undici 7 package keeps it: the other tests of this file then check node's own.
    if (process.versions.node.startsWith("20.")) {
      expect(undiciAgent).toBeInstanceOf(Agent);
    } else {
      expect(undiciAgent).not.toBeInstanceOf(Agent);
      expect(undiciAgent?.constructor.name).toBe("Agent");
    }
  });

  it.live("google: code exchange, refresh, revocation and profile", () =>
    Effect.gen(function* () {
      idp.seen.length = 0;
      idp.routes.set("POST /token", { json: fullTokens() });
      idp.routes.set("POST /revoke", { json: {} });
      idp.routes.set("GET /api/v1/userinfo", {
        json: { sub: "g-1", email: "ada@example.com", email_verified: true },
      });
      const google = yield* GoogleProvider.make(
        { ...credentials("google"), endpoints: endpoints() },
        settings,
      );
      const { refreshToken, revokeToken } = google;
      if (refreshToken === undefined || revokeToken === undefined) {
        return expect.fail("google refreshes and revokes tokens");
      }
      const tokens = yield* google.exchangeCode({ code: "the-code", codeVerifier: VERIFIER });
      expect(Redacted.value(tokens.accessToken)).toBe(ACCESS_TOKEN);
      const refreshed = yield* refreshToken(Redacted.make(REFRESH_TOKEN));
      expect(Redacted.value(refreshed.accessToken)).toBe(ACCESS_TOKEN);
      yield* revokeToken(Redacted.make(ACCESS_TOKEN));
      const user = yield* google.fetchProfile(tokens.accessToken, tokens);
      expect(user).toEqual({ id: "g-1", email: "ada@example.com", emailVerified: true });
      expect(tokenForms()).toEqual([
        {
          grant_type: "authorization_code",
          code: "the-code",
          redirect_uri: REDIRECT("google"),
          code_verifier: VERIFIER,
        },
        { grant_type: "refresh_token", refresh_token: REFRESH_TOKEN },
      ]);
      const basic = `Basic ${Buffer.from(`google-client-id:${SECRET}`).toString("base64")}`;
      expect(
        idp.seen.filter((s) => s.method === "POST").map((s) => s.headers.authorization),
      ).toEqual([basic, basic, basic]);
    }).pipe(Effect.provide(FetchHttpClient.layer)),
  );

  it.live("every built-in provider's code exchange at moved endpoints", () =>
    Effect.gen(function* () {
      idp.routes.set("POST /token", { json: fullTokens() });
      const makes = [
        GitHubProvider.make({ ...credentials("github"), endpoints: endpoints() }, settings),
        FacebookProvider.make({ ...credentials("facebook"), endpoints: endpoints() }, settings),
        TwitterProvider.make({ ...credentials("twitter"), endpoints: endpoints() }, settings),
        MicrosoftProvider.make({ ...credentials("microsoft"), endpoints: endpoints() }, settings),
        MicrosoftProvider.make(
          { ...credentials("microsoft"), clientSecret: null, endpoints: endpoints() },
          settings,
        ),
      ];
      for (const make of makes) {
        const provider = yield* make;
        const tokens = yield* provider.exchangeCode({ code: "c", codeVerifier: VERIFIER });
        expect(Redacted.value(tokens.accessToken)).toBe(ACCESS_TOKEN);
      }
    }).pipe(Effect.provide(FetchHttpClient.layer)),
  );

  it.live("OpenID Connect: discovery, code exchange with a verified ID token, userinfo", () =>
    Effect.gen(function* () {
      const issuer = yield* Effect.promise(() => openIdIssuer(idp));
      const idToken = yield* Effect.promise(() =>
        issuer.idToken("strata-oidc", { nonce: "the-nonce" }),
      );
      idp.routes.set("POST /token", { json: { ...fullTokens(), id_token: idToken } });
      idp.routes.set("GET /userinfo", { json: { sub: "user-1", name: "Ada" } });
      const provider = yield* OidcProvider.make(
        "keycloak",
        {
          type: "oidc",
          issuer: issuer.issuer,
          clientId: "strata-oidc",
          clientSecret: SECRET,
          redirectUri: REDIRECT("keycloak"),
        },
        settings,
      );
      const tokens = yield* provider.exchangeCode({
        code: "c",
        codeVerifier: VERIFIER,
        nonce: "the-nonce",
      });
      expect(Redacted.value(tokens.accessToken)).toBe(ACCESS_TOKEN);
      const user = yield* provider.fetchProfile(tokens.accessToken, tokens);
      expect(user).toEqual({ id: "user-1", name: "Ada" });
    }).pipe(Effect.provide(FetchHttpClient.layer)),
  );

  it("Strata replaced neither the global fetch nor the global dispatcher", () => {
    expect(globalThis.fetch).toBe(nodeFetch);
    expect(globalDispatcher()).toBe(undiciAgent);
  });
});
