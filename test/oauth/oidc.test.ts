// The generic OpenID Connect provider against a mocked issuer (undici's MockAgent): discovery,
// the authorization URL, the token request, ID token verification with jose (signature, iss,
// aud, exp, nonce), userinfo `sub` matching, and its place in the registry and the pipeline.
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import * as TestClock from "effect/TestClock";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import {
  OAuth,
  type OAuthProviderService,
  OAuthProviders,
  OidcProvider,
  type OidcProviderConfig,
} from "../../src/oauth/index.js";
import { checkCallbackState } from "../../src/oauth/StateCheck.js";
import { ACCESS_TOKEN, REDIRECT, SECRET, s256 } from "./fixtures.js";
import { basicCredentials, form, mockNetwork } from "./support/network.js";

const net = mockNetwork();

const ISSUER = "https://id.example.test/realms/main";
const BASE = "https://id.example.test/realms/main/protocol/openid-connect";
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const NOW = Date.UTC(2030, 0, 1);

const keys = await generateKeyPair("RS256");
const otherKeys = await generateKeyPair("RS256");
const jwk = { ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "RS256", use: "sig" };

const metadata = (extra: Record<string, unknown> = {}) => ({
  issuer: ISSUER,
  authorization_endpoint: `${BASE}/auth`,
  token_endpoint: `${BASE}/token`,
  userinfo_endpoint: `${BASE}/userinfo`,
  jwks_uri: `${BASE}/certs`,
  revocation_endpoint: `${BASE}/revoke`,
  token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
  id_token_signing_alg_values_supported: ["RS256", "HS256", "none"],
  authorization_response_iss_parameter_supported: true,
  ...extra,
});

/** Mocks the issuer's discovery document and JWKS. */
const mockIssuer = (extra: Record<string, unknown> = {}) => {
  net.on("GET", `${ISSUER}/.well-known/openid-configuration`, { json: metadata(extra) });
  net.on("GET", `${BASE}/certs`, { json: { keys: [jwk] } }, { persist: true });
};

const config = (extra: Partial<OidcProviderConfig> = {}): OidcProviderConfig => ({
  type: "oidc",
  issuer: ISSUER,
  clientId: "strata-app",
  clientSecret: SECRET,
  redirectUri: REDIRECT("keycloak"),
  ...extra,
});

const live = (cfg: OidcProviderConfig = config()) =>
  OidcProvider.make("keycloak", cfg, { timeout: "2 seconds" }).pipe(
    Effect.provide(FetchHttpClient.layer),
  );

/** An ID token signed with `key` (the issuer's by default). */
const idToken = (claims: JWTPayload, key: CryptoKey = keys.privateKey, kid = "k1") =>
  new SignJWT({
    iss: ISSUER,
    aud: "strata-app",
    sub: "user-1",
    nonce: "nonce-hash",
    iat: Math.floor(NOW / 1000),
    exp: Math.floor(NOW / 1000) + 300,
    ...claims,
  })
    .setProtectedHeader({ alg: "RS256", kid })
    .sign(key);

const tokenAnswer = (token: string | undefined) => ({
  access_token: ACCESS_TOKEN,
  token_type: "Bearer",
  expires_in: 300,
  ...(token === undefined ? {} : { id_token: token }),
});

const exchange = (provider: OAuthProviderService, nonce = "nonce-hash") =>
  provider.exchangeCode({ code: "the-code", codeVerifier: VERIFIER, nonce });

describe("oidc provider: discovery", () => {
  it.effect("reads the discovery document; endpoints, iss and scopes follow it", () =>
    Effect.gen(function* () {
      mockIssuer();
      const provider = yield* live();
      expect(provider.name).toBe("keycloak");
      expect(provider.pkce).toBe(true);
      expect(provider.oidc).toBe(true);
      expect(provider.defaultScopes).toEqual(["openid", "profile", "email"]);
      expect(provider.acceptsIssuer(ISSUER)).toBe(true);
      expect(provider.acceptsIssuer(`${ISSUER}/`)).toBe(false);
      expect(provider.requiresIssuer).toBe(true);
      const url = yield* provider.authorizationUrl({
        state: "st",
        codeVerifier: VERIFIER,
        scopes: provider.defaultScopes,
        nonce: "nonce-hash",
      });
      expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/auth`);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        response_type: "code",
        client_id: "strata-app",
        redirect_uri: REDIRECT("keycloak"),
        state: "st",
        code_challenge_method: "S256",
        code_challenge: s256(VERIFIER),
        scope: "openid profile email",
        nonce: "nonce-hash",
      });
      expect(net.seen[0].headers.authorization).toBeUndefined();
    }),
  );

  it.effect("`openid` is always asked for", () =>
    Effect.gen(function* () {
      mockIssuer();
      const provider = yield* live(config({ scopes: ["email"] }));
      expect(provider.defaultScopes).toEqual(["openid", "email"]);
    }),
  );

  it.effect(
    "a document naming another issuer, a failed fetch, or http endpoints: startup fails",
    () =>
      Effect.gen(function* () {
        net.on("GET", `${ISSUER}/.well-known/openid-configuration`, {
          json: metadata({ issuer: "https://evil.example" }),
        });
        const other = yield* Effect.flip(live());
        expect(other).toMatchObject({ _tag: "OAuthConfigError" });
        expect(other.message).toContain("another issuer");
        net.on("GET", `${ISSUER}/.well-known/openid-configuration`, { status: 404, text: "" });
        expect((yield* Effect.flip(live())).message).toContain("404");
        net.on("GET", `${ISSUER}/.well-known/openid-configuration`, { networkError: true });
        expect((yield* Effect.flip(live())).message).toContain("ECONNREFUSED");
        net.on("GET", `${ISSUER}/.well-known/openid-configuration`, {
          json: metadata({ token_endpoint: "http://id.example.test/token" }),
        });
        expect((yield* Effect.flip(live())).message).toContain("token_endpoint");
        net.on("GET", `${ISSUER}/.well-known/openid-configuration`, { json: { issuer: ISSUER } });
        expect((yield* Effect.flip(live())).message).toContain("malformed");
      }),
  );

  it.effect("bad names and issuers are configuration errors, before any request", () =>
    Effect.gen(function* () {
      for (const name of ["google", "Keycloak", "constructor", "__proto__", "a/b", ""]) {
        const error = yield* Effect.flip(
          OidcProvider.make(name, config()).pipe(Effect.provide(FetchHttpClient.layer)),
        );
        expect(error._tag).toBe("OAuthConfigError");
      }
      const http = yield* Effect.flip(live(config({ issuer: "http://id.example.test" })));
      expect(http._tag).toBe("OAuthConfigError");
      expect(net.seen).toHaveLength(0);
    }),
  );
});

describe("oidc provider: token exchange and ID token", () => {
  it.effect("client_secret_basic, PKCE verifier, redirect; a valid ID token passes", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW);
      mockIssuer();
      const provider = yield* live();
      net.on("POST", `${BASE}/token`, {
        json: tokenAnswer(yield* Effect.promise(() => idToken({}))),
      });
      const tokens = yield* exchange(provider);
      expect(Redacted.value(tokens.accessToken)).toBe(ACCESS_TOKEN);
      expect(tokens.idToken).toBeDefined();
      const request = net.seen.find((s) => s.path.endsWith("/token"));
      expect(request).toBeDefined();
      if (request === undefined) return;
      expect(basicCredentials(request)).toBe(`strata-app:${SECRET}`);
      expect(form(request)).toEqual({
        grant_type: "authorization_code",
        code: "the-code",
        redirect_uri: REDIRECT("keycloak"),
        code_verifier: VERIFIER,
      });
    }),
  );

  const refused: ReadonlyArray<readonly [string, () => Promise<string | undefined>, string?]> = [
    ["no ID token", async () => undefined],
    ["another key's signature", () => idToken({}, otherKeys.privateKey)],
    ["an unknown kid", () => idToken({}, otherKeys.privateKey, "k2")],
    ["another issuer", () => idToken({ iss: "https://evil.example" })],
    ["another audience", () => idToken({ aud: "someone-else" })],
    ["an expired token", () => idToken({ exp: Math.floor(NOW / 1000) - 120 })],
    ["another nonce", () => idToken({ nonce: "replayed" })],
    ["no nonce", () => idToken({ nonce: undefined })],
    ["another azp", () => idToken({ aud: ["strata-app", "x"], azp: "x" })],
    ["several audiences without azp", () => idToken({ aud: ["strata-app", "x"] })],
    [
      "an unsigned (alg none) token",
      async () => {
        const header = Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url");
        return `${header}.${(await idToken({})).split(".")[1]}.`;
      },
    ],
  ];
  for (const [what, make] of refused) {
    it.effect(`${what} -> TokenResponseMalformed`, () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(NOW);
        mockIssuer();
        const provider = yield* live();
        net.on("POST", `${BASE}/token`, { json: tokenAnswer(yield* Effect.promise(make)) });
        const error = yield* Effect.flip(exchange(provider));
        expect(error._tag).toBe("TokenResponseMalformed");
      }),
    );
  }

  it.effect("an unreachable JWKS -> ProviderUnreachable", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW);
      net.on("GET", `${ISSUER}/.well-known/openid-configuration`, { json: metadata() });
      net.on("GET", `${BASE}/certs`, { status: 500, text: "down" });
      const provider = yield* live();
      net.on("POST", `${BASE}/token`, {
        json: tokenAnswer(yield* Effect.promise(() => idToken({}))),
      });
      const error = yield* Effect.flip(exchange(provider));
      expect(error._tag).toBe("ProviderUnreachable");
    }),
  );

  it.effect("a refused code -> CodeRejected", () =>
    Effect.gen(function* () {
      mockIssuer();
      const provider = yield* live();
      net.on("POST", `${BASE}/token`, { status: 400, json: { error: "invalid_grant" } });
      const error = yield* Effect.flip(exchange(provider));
      expect(error).toMatchObject({ _tag: "CodeRejected", oauthError: "invalid_grant" });
    }),
  );

  it.effect(
    "client_secret_post when the issuer takes only that; public clients send client_id",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(NOW);
        const token = yield* Effect.promise(() => idToken({}));
        mockIssuer({ token_endpoint_auth_methods_supported: ["client_secret_post"] });
        const post = yield* live();
        net.on("POST", `${BASE}/token`, { json: tokenAnswer(token) });
        yield* exchange(post);
        const postRequest = net.seen.filter((s) => s.path.endsWith("/token"))[0];
        expect(basicCredentials(postRequest)).toBeUndefined();
        expect(form(postRequest)).toMatchObject({
          client_id: "strata-app",
          client_secret: SECRET,
          code_verifier: VERIFIER,
        });
        expect(post.revokeToken).toBeUndefined();
        net.reset();
        mockIssuer();
        const pub = yield* live(config({ clientSecret: null }));
        net.on("POST", `${BASE}/token`, { json: tokenAnswer(token) });
        yield* exchange(pub);
        const publicRequest = net.seen.filter((s) => s.path.endsWith("/token"))[0];
        expect(basicCredentials(publicRequest)).toBeUndefined();
        expect(form(publicRequest)).toMatchObject({ client_id: "strata-app" });
        expect(form(publicRequest).client_secret).toBeUndefined();
      }),
  );
});

describe("oidc provider: profile", () => {
  const tokensWith = (token: string) => ({
    accessToken: Redacted.make(ACCESS_TOKEN),
    idToken: Redacted.make(token),
  });

  it.effect("userinfo about the ID token's subject; unverified email dropped", () =>
    Effect.gen(function* () {
      mockIssuer();
      const provider = yield* live();
      const token = yield* Effect.promise(() => idToken({}));
      net.on("GET", `${BASE}/userinfo`, {
        json: {
          sub: "user-1",
          email: "ada@example.com",
          email_verified: true,
          preferred_username: "ada",
        },
      });
      const user = yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN), tokensWith(token));
      expect(user).toEqual({
        id: "user-1",
        email: "ada@example.com",
        emailVerified: true,
        name: "ada",
      });
      const request = net.seen.find((s) => s.path.endsWith("/userinfo"));
      expect(request?.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
      net.on("GET", `${BASE}/userinfo`, {
        json: { sub: "user-1", email: "x@example.com", email_verified: false, name: "Ada" },
      });
      const unverified = yield* provider.fetchProfile(
        Redacted.make(ACCESS_TOKEN),
        tokensWith(token),
      );
      expect(unverified).toEqual({ id: "user-1", name: "Ada" });
    }),
  );

  it.effect(
    "check 37: email_verified true -> emailVerified true; false or absent -> no email",
    () =>
      Effect.gen(function* () {
        mockIssuer();
        const provider = yield* live();
        const token = yield* Effect.promise(() => idToken({}));
        const profile = (claims: Record<string, unknown>) => {
          net.on("GET", `${BASE}/userinfo`, {
            json: { sub: "user-1", email: "ada@example.com", ...claims },
          });
          return provider.fetchProfile(Redacted.make(ACCESS_TOKEN), tokensWith(token));
        };
        for (const yes of [true, "true"]) {
          expect(yield* profile({ email_verified: yes })).toEqual({
            id: "user-1",
            email: "ada@example.com",
            emailVerified: true,
          });
        }
        for (const claims of [{}, { email_verified: false }, { email_verified: "false" }]) {
          expect(yield* profile(claims)).toEqual({ id: "user-1" });
        }
      }),
  );

  it.effect("check 37: without userinfo, the ID token's email_verified decides", () =>
    Effect.gen(function* () {
      mockIssuer({ userinfo_endpoint: undefined });
      const provider = yield* live();
      const verified = yield* Effect.promise(() =>
        idToken({ email: "a@b.c", email_verified: true }),
      );
      expect(
        yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN), tokensWith(verified)),
      ).toEqual({ id: "user-1", email: "a@b.c", emailVerified: true });
      const unverified = yield* Effect.promise(() =>
        idToken({ email: "a@b.c", email_verified: false }),
      );
      expect(
        yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN), tokensWith(unverified)),
      ).toEqual({ id: "user-1" });
    }),
  );

  it.effect("userinfo about another subject -> ProfileFetchFailed subject_mismatch", () =>
    Effect.gen(function* () {
      mockIssuer();
      const provider = yield* live();
      const token = yield* Effect.promise(() => idToken({}));
      net.on("GET", `${BASE}/userinfo`, { json: { sub: "someone-else" } });
      const error = yield* Effect.flip(
        provider.fetchProfile(Redacted.make(ACCESS_TOKEN), tokensWith(token)),
      );
      expect(error).toMatchObject({ _tag: "ProfileFetchFailed", reason: "subject_mismatch" });
    }),
  );

  it.effect("without a userinfo endpoint, the ID token's claims", () =>
    Effect.gen(function* () {
      mockIssuer({ userinfo_endpoint: undefined });
      const provider = yield* live();
      const token = yield* Effect.promise(() => idToken({ name: "Ada", email: "a@b.c" }));
      const user = yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN), tokensWith(token));
      expect(user).toEqual({ id: "user-1", name: "Ada" });
      const none = yield* Effect.flip(provider.fetchProfile(Redacted.make(ACCESS_TOKEN)));
      expect(none).toMatchObject({ _tag: "ProfileFetchFailed", reason: "malformed" });
    }),
  );
});

describe("oidc provider: registry, iss on the callback, pipeline", () => {
  it.effect("several OpenID providers under app-chosen names, beside built-in ones", () =>
    Effect.gen(function* () {
      mockIssuer();
      net.on("GET", `${ISSUER}/.well-known/openid-configuration`, { json: metadata() });
      const registry = yield* OAuthProviders.pipe(
        Effect.provide(
          OAuthProviders.layer({
            providers: {
              keycloak: config(),
              "auth0-eu": config({ redirectUri: REDIRECT("auth0-eu") }),
              github: {
                clientId: "gh",
                clientSecret: SECRET,
                redirectUri: REDIRECT("github"),
              },
            },
          }).pipe(Layer.provide(FetchHttpClient.layer)),
        ),
      );
      expect(registry.names).toEqual(["github", "keycloak", "auth0-eu"]);
      expect(Option.isSome(registry.get("auth0-eu"))).toBe(true);
      expect(Option.isNone(registry.get("constructor"))).toBe(true);
    }),
  );

  it.effect("a custom name without type oidc, or a bad name, is a startup error", () =>
    Effect.gen(function* () {
      const build = (providers: Record<string, unknown>) =>
        Effect.flip(
          OAuthProviders.pipe(
            Effect.provide(
              OAuthProviders.layer({ providers: providers as never }).pipe(
                Layer.provide(FetchHttpClient.layer),
              ),
            ),
          ),
        );
      const untyped = yield* build({
        keycloak: { clientId: "x", clientSecret: "y", redirectUri: REDIRECT("x") },
      });
      expect(untyped.message).toContain("keycloak");
      const badName = yield* build({ "Key Cloak": config() });
      expect(badName.message).toContain("Key Cloak");
      const builtIn = yield* build({ google: config() });
      expect(builtIn.message).toContain("google");
      expect(net.seen).toHaveLength(0);
    }),
  );

  it.effect("the callback's iss: required (the issuer announces it) and exact", () =>
    Effect.gen(function* () {
      mockIssuer();
      const provider = yield* live();
      const tx = Option.some({
        provider: "keycloak",
        state: "st",
        redirects: {},
        expiry: NOW + 1000,
      });
      const check = (iss: unknown) =>
        checkCallbackState(provider, { state: "st", code: "c", iss }, tx, NOW);
      expect(Either.isRight(check(ISSUER))).toBe(true);
      for (const iss of [undefined, `${ISSUER}/`, "https://evil.example", [ISSUER]]) {
        expect(check(iss)).toMatchObject({ left: { reason: "issuer_mismatch" } });
      }
    }),
  );

  it.effect("the pipeline: authorize then callback, nonce hashed, profile with tokens", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW);
      mockIssuer();
      const oauth = yield* OAuth.pipe(
        Effect.provide(
          OAuth.layer({ providers: { keycloak: config() } }).pipe(
            Layer.provide(FetchHttpClient.layer),
          ),
        ),
      );
      expect(oauth.providers).toEqual(["keycloak"]);
      const started = yield* oauth.authorize("keycloak");
      const url = new URL(started.url);
      const nonce = url.searchParams.get("nonce") ?? "";
      expect(started.transaction.provider).toBe("keycloak");
      net.on("POST", `${BASE}/token`, {
        json: tokenAnswer(yield* Effect.promise(() => idToken({ nonce }))),
      });
      net.on("GET", `${BASE}/userinfo`, { json: { sub: "user-1", name: "Ada" } });
      const session = yield* oauth.callback(
        "keycloak",
        { state: started.state, code: "c", iss: ISSUER },
        Option.some(started.transaction),
      );
      expect(session).toMatchObject({ provider: "keycloak", user: { id: "user-1", name: "Ada" } });
    }),
  );
});
