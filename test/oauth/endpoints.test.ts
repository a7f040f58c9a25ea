import { describe, expect, it } from "@effect/vitest";
import * as ConfigProvider from "effect/ConfigProvider";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import {
  FacebookProvider,
  GitHubProvider,
  GoogleProvider,
  MicrosoftProvider,
  oauthConfigFromEnv,
  type ProviderEndpoints,
  type SupportedProvider,
  TwitterProvider,
} from "../../src/oauth/index.js";
import {
  ACCESS_TOKEN,
  credentials,
  facebookMe,
  fullTokens,
  githubEmails,
  githubUser,
  googleUserinfo,
  microsoftUserinfo,
  REDIRECT,
  REFRESH_TOKEN,
  SECRET,
  s256,
  twitterMe,
} from "./fixtures.js";
import { live, type Make, VERIFIER } from "./support/liveProvider.js";
import { basicCredentials, form, mockNetwork } from "./support/network.js";

const net = mockNetwork();

const HOST = "https://idp.internal.example";

/** Overrides of every endpoint, under a per-provider prefix of {@link HOST}. */
const moved = (provider: string): Required<ProviderEndpoints> => ({
  authorization: `${HOST}/${provider}/authorize`,
  token: `${HOST}/${provider}/token`,
  revocation: `${HOST}/${provider}/revoke`,
  api: `${HOST}/${provider}/api/`,
});

interface Case {
  readonly name: SupportedProvider;
  readonly make: (endpoints: ProviderEndpoints) => Make;
  readonly pkce: boolean;
  readonly clientAuth: "basic" | "body";
  /** Mocks the profile at the moved API, returns the paths expected to be asked. */
  readonly mockProfile: () => ReadonlyArray<string>;
  readonly userId: string;
}

const api = (provider: string) => `${HOST}/${provider}/api`;

const cases: ReadonlyArray<Case> = [
  {
    name: "google",
    make: (endpoints) => live(GoogleProvider.make({ ...credentials("google"), endpoints })),
    pkce: true,
    clientAuth: "basic",
    mockProfile: () => {
      net.on("GET", `${api("google")}/v1/userinfo`, { json: googleUserinfo });
      return ["/google/api/v1/userinfo"];
    },
    userId: googleUserinfo.sub,
  },
  {
    name: "microsoft",
    make: (endpoints) => live(MicrosoftProvider.make({ ...credentials("microsoft"), endpoints })),
    pkce: true,
    clientAuth: "basic",
    mockProfile: () => {
      net.on("GET", `${api("microsoft")}/oidc/userinfo`, { json: microsoftUserinfo });
      return ["/microsoft/api/oidc/userinfo"];
    },
    userId: microsoftUserinfo.sub,
  },
  {
    name: "github",
    make: (endpoints) => live(GitHubProvider.make({ ...credentials("github"), endpoints })),
    pkce: false,
    clientAuth: "basic",
    mockProfile: () => {
      net.on("GET", `${api("github")}/user`, { json: githubUser });
      net.on("GET", `${api("github")}/user/emails`, { json: githubEmails });
      return ["/github/api/user", "/github/api/user/emails"];
    },
    userId: String(githubUser.id),
  },
  {
    name: "facebook",
    make: (endpoints) => live(FacebookProvider.make({ ...credentials("facebook"), endpoints })),
    pkce: false,
    clientAuth: "body",
    mockProfile: () => {
      net.on("GET", `${api("facebook")}/me`, { json: facebookMe });
      return ["/facebook/api/me"];
    },
    userId: facebookMe.id,
  },
  {
    name: "twitter",
    make: (endpoints) => live(TwitterProvider.make({ ...credentials("twitter"), endpoints })),
    pkce: true,
    clientAuth: "basic",
    mockProfile: () => {
      net.on("GET", `${api("twitter")}/2/users/me`, { json: twitterMe });
      return ["/twitter/api/2/users/me"];
    },
    userId: twitterMe.data.id,
  },
];

for (const c of cases) {
  describe(`${c.name} with overridden endpoints`, () => {
    it.effect("authorization URL at the overridden endpoint, same parameters", () =>
      Effect.gen(function* () {
        const provider = yield* c.make(moved(c.name));
        const url = yield* provider.authorizationUrl({
          state: "state-abc",
          scopes: provider.defaultScopes,
          ...(c.pkce ? { codeVerifier: VERIFIER } : {}),
        });
        expect(`${url.origin}${url.pathname}`).toBe(`${HOST}/${c.name}/authorize`);
        const params = Object.fromEntries(url.searchParams);
        expect(params).toMatchObject({
          response_type: "code",
          client_id: `${c.name}-client-id`,
          redirect_uri: REDIRECT(c.name),
          state: "state-abc",
          scope: provider.defaultScopes.join(" "),
        });
        if (c.pkce) {
          expect(params.code_challenge_method).toBe("S256");
          expect(params.code_challenge).toBe(s256(VERIFIER));
        } else {
          expect(params.code_challenge).toBeUndefined();
        }
        expect(url.toString()).not.toContain(SECRET);
      }),
    );

    it.effect("token request at the overridden endpoint: auth method, verifier, redirect", () =>
      Effect.gen(function* () {
        const provider = yield* c.make(moved(c.name));
        net.on("POST", `${HOST}/${c.name}/token`, { json: fullTokens() });
        const tokens = yield* provider.exchangeCode({
          code: "the-code",
          ...(c.pkce ? { codeVerifier: VERIFIER } : {}),
        });
        expect(Redacted.value(tokens.accessToken)).toBe(ACCESS_TOKEN);
        expect(net.seen).toHaveLength(1);
        const request = net.seen[0];
        expect(`${request.origin}${request.path}`).toBe(`${HOST}/${c.name}/token`);
        expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
        const fields = form(request);
        expect(fields).toMatchObject({
          grant_type: "authorization_code",
          code: "the-code",
          redirect_uri: REDIRECT(c.name),
        });
        if (c.pkce) expect(fields.code_verifier).toBe(VERIFIER);
        else expect(fields.code_verifier).toBeUndefined();
        if (c.clientAuth === "basic") {
          expect(basicCredentials(request)).toBe(`${c.name}-client-id:${SECRET}`);
          expect(fields.client_secret).toBeUndefined();
        } else {
          expect(basicCredentials(request)).toBeUndefined();
          expect(fields).toMatchObject({ client_id: `${c.name}-client-id`, client_secret: SECRET });
        }
      }),
    );

    it.effect("a refused code at the overridden endpoint -> CodeRejected", () =>
      Effect.gen(function* () {
        const provider = yield* c.make(moved(c.name));
        net.on("POST", `${HOST}/${c.name}/token`, {
          // GitHub refuses with 200 and an error body; Facebook with a Graph error.
          status: c.name === "github" ? 200 : 400,
          json:
            c.name === "facebook"
              ? { error: { message: "UPSTREAM", type: "OAuthException", code: 100 } }
              : { error: "invalid_grant", error_description: "UPSTREAM" },
        });
        const error = yield* Effect.flip(
          provider.exchangeCode({ code: "used", ...(c.pkce ? { codeVerifier: VERIFIER } : {}) }),
        );
        expect(error._tag).toBe("CodeRejected");
        expect(JSON.stringify(error)).not.toContain("UPSTREAM");
      }),
    );

    it.effect("profile requests go to the overridden API base", () =>
      Effect.gen(function* () {
        const provider = yield* c.make(moved(c.name));
        const paths = c.mockProfile();
        const user = yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN));
        expect(user.id).toBe(c.userId);
        expect(net.seen.map((s) => s.origin)).toEqual(paths.map(() => HOST));
        expect(net.seen.map((s) => s.path.split("?")[0]).sort()).toEqual([...paths].sort());
        for (const request of net.seen) {
          expect(request.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
        }
      }),
    );

    it.effect("only the API moved: the token request still goes to the provider", () =>
      Effect.gen(function* () {
        const provider = yield* c.make({ api: `${HOST}/${c.name}/api` });
        const url = yield* provider.authorizationUrl({
          state: "s",
          scopes: provider.defaultScopes,
          ...(c.pkce ? { codeVerifier: VERIFIER } : {}),
        });
        expect(url.origin).not.toBe(HOST);
        c.mockProfile();
        yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN));
        expect(net.seen.every((s) => s.origin === HOST)).toBe(true);
      }),
    );
  });
}

describe("override specifics", () => {
  it.effect("google: refresh and revocation at the overridden endpoints; iss = the host", () =>
    Effect.gen(function* () {
      const provider = yield* live(
        GoogleProvider.make({ ...credentials("google"), endpoints: moved("google") }),
      );
      net.on("POST", `${HOST}/google/token`, { json: { access_token: "new", expires_in: 60 } });
      yield* (provider.refreshToken ?? Effect.die)(Redacted.make(REFRESH_TOKEN));
      expect(form(net.seen[0])).toMatchObject({
        grant_type: "refresh_token",
        refresh_token: REFRESH_TOKEN,
      });
      expect(basicCredentials(net.seen[0])).toBe(`google-client-id:${SECRET}`);
      net.on("POST", `${HOST}/google/revoke`, { status: 200, text: "" });
      yield* (provider.revokeToken ?? Effect.die)(Redacted.make(ACCESS_TOKEN));
      expect(`${net.seen[1].origin}${net.seen[1].path}`).toBe(`${HOST}/google/revoke`);
      expect(provider.acceptsIssuer(HOST)).toBe(true);
      expect(provider.acceptsIssuer(GoogleProvider.issuer)).toBe(false);
    }),
  );

  it.effect("twitter: a public client at overridden endpoints sends client_id, no Basic", () =>
    Effect.gen(function* () {
      const provider = yield* live(
        TwitterProvider.make({
          clientId: "tw",
          clientSecret: null,
          redirectUri: REDIRECT("twitter"),
          endpoints: moved("twitter"),
        }),
      );
      net.on("POST", `${HOST}/twitter/token`, { json: fullTokens() });
      yield* provider.exchangeCode({ code: "c", codeVerifier: VERIFIER });
      expect(basicCredentials(net.seen[0])).toBeUndefined();
      expect(form(net.seen[0])).toMatchObject({ client_id: "tw", code_verifier: VERIFIER });
      net.on("POST", `${HOST}/twitter/revoke`, { status: 200, text: "" });
      yield* (provider.revokeToken ?? Effect.die)(Redacted.make(ACCESS_TOKEN));
      expect(form(net.seen[1])).toEqual({ token: ACCESS_TOKEN, client_id: "tw" });
    }),
  );

  it.effect("microsoft: loginHost moves authorization, token and the accepted iss", () =>
    Effect.gen(function* () {
      const host = "https://login.microsoftonline.us";
      const provider = yield* live(
        MicrosoftProvider.make({ ...credentials("microsoft"), tenant: "contoso", loginHost: host }),
      );
      const url = yield* provider.authorizationUrl({
        state: "s",
        codeVerifier: VERIFIER,
        scopes: ["openid"],
        nonce: "n",
      });
      expect(`${url.origin}${url.pathname}`).toBe(`${host}/contoso/oauth2/v2.0/authorize`);
      expect(url.searchParams.get("nonce")).toBe("n");
      net.on("POST", `${host}/contoso/oauth2/v2.0/token`, { json: fullTokens() });
      yield* provider.exchangeCode({ code: "c", codeVerifier: VERIFIER });
      expect(basicCredentials(net.seen[0])).toBe(`microsoft-client-id:${SECRET}`);
      expect(form(net.seen[0]).code_verifier).toBe(VERIFIER);
      expect(provider.acceptsIssuer(`${host}/contoso/v2.0`)).toBe(true);
      expect(provider.acceptsIssuer("https://login.microsoftonline.com/contoso/v2.0")).toBe(false);
      const common = yield* live(
        MicrosoftProvider.make({ ...credentials("microsoft"), loginHost: `${host}/` }),
      );
      expect(common.acceptsIssuer(`${host}/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0`)).toBe(true);
      expect(
        common.acceptsIssuer(
          "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0",
        ),
      ).toBe(false);
      expect(
        common.acceptsIssuer(
          "https://login.microsoftonlineXus/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0",
        ),
      ).toBe(false);
    }),
  );

  it.effect("microsoft: a public client elsewhere sends client_id and an Origin header", () =>
    Effect.gen(function* () {
      const provider = yield* live(
        MicrosoftProvider.make({
          clientId: "pub",
          redirectUri: REDIRECT("microsoft"),
          endpoints: moved("microsoft"),
        }),
      );
      net.on("POST", `${HOST}/microsoft/token`, { json: fullTokens() }, { times: 2 });
      yield* provider.exchangeCode({ code: "c", codeVerifier: VERIFIER });
      const [exchange] = net.seen;
      expect(basicCredentials(exchange)).toBeUndefined();
      expect(exchange.headers.origin).toBe("http://127.0.0.1");
      expect(exchange.headers.accept).toBe("application/json");
      expect(form(exchange)).toEqual({
        grant_type: "authorization_code",
        code: "c",
        redirect_uri: REDIRECT("microsoft"),
        code_verifier: VERIFIER,
        client_id: "pub",
      });
      yield* (provider.refreshToken ?? Effect.die)(Redacted.make(REFRESH_TOKEN), ["openid"]);
      expect(form(net.seen[1])).toEqual({
        grant_type: "refresh_token",
        refresh_token: REFRESH_TOKEN,
        client_id: "pub",
        scope: "openid",
      });
      expect(net.seen[1].headers.origin).toBe("http://127.0.0.1");
    }),
  );

  it.effect("github enterprise: refresh keeps the 200-with-error reading", () =>
    Effect.gen(function* () {
      const provider = yield* live(
        GitHubProvider.make({ ...credentials("github"), endpoints: moved("github") }),
      );
      net.on("POST", `${HOST}/github/token`, {
        json: { error: "bad_refresh_token", error_description: "x" },
      });
      const error = yield* Effect.flip(
        (provider.refreshToken ?? Effect.die)(Redacted.make(REFRESH_TOKEN)),
      );
      expect(error).toMatchObject({ _tag: "CodeRejected", oauthError: "other" });
    }),
  );

  it.effect("facebook: a Graph error at the public endpoint is a refusal too", () =>
    Effect.gen(function* () {
      const provider = yield* live(FacebookProvider.make(credentials("facebook")));
      net.on("POST", "https://graph.facebook.com/v16.0/oauth/access_token", {
        status: 400,
        json: { error: { message: "code used", type: "OAuthException", code: 100 } },
      });
      const error = yield* Effect.flip(provider.exchangeCode({ code: "used" }));
      expect(error).toMatchObject({ _tag: "CodeRejected", oauthError: "other" });
    }),
  );

  it.effect("facebook: appsecret_proof still sent to the moved Graph API", () =>
    Effect.gen(function* () {
      const provider = yield* live(
        FacebookProvider.make({ ...credentials("facebook"), endpoints: { api: HOST } }),
      );
      net.on("GET", `${HOST}/me`, { json: facebookMe });
      yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN));
      const query = new URLSearchParams(net.seen[0].path.split("?")[1]);
      expect(query.get("fields")).toBe("id,name,email,picture");
      expect(query.get("appsecret_proof")).toMatch(/^[0-9a-f]{64}$/);
    }),
  );

  it.effect("http is accepted on loopback hosts only; credentials, fragments refused", () =>
    Effect.gen(function* () {
      const make = (endpoints: ProviderEndpoints) =>
        Effect.either(live(GitHubProvider.make({ ...credentials("github"), endpoints })));
      for (const ok of [
        { token: "http://127.0.0.1:4000/token" },
        { authorization: "http://localhost:4000/authorize" },
        { api: "http://[::1]:4000/api" },
        { api: "http://devidp.localhost:4000" },
      ]) {
        expect((yield* make(ok))._tag).toBe("Right");
      }
      for (const bad of [
        { token: "http://idp.example/token" },
        { token: "https://user:pw@idp.example/token" },
        { authorization: "https://idp.example/authorize#x" },
        { authorization: "/authorize" },
        { api: "https://idp.example/api?x=1" },
        { token: "ftp://idp.example/token" },
      ]) {
        const result = yield* make(bad);
        expect(result._tag).toBe("Left");
      }
      const host = yield* Effect.either(
        live(
          MicrosoftProvider.make({ ...credentials("microsoft"), loginHost: "http://evil.example" }),
        ),
      );
      expect(host._tag).toBe("Left");
    }),
  );

  it.effect("the environment's endpoint variables", () =>
    Effect.gen(function* () {
      const env = {
        GITHUB_CLIENT_ID: "gh",
        GITHUB_CLIENT_SECRET: "s",
        GITHUB_AUTHORIZATION_URL: "https://ghe.example/login/oauth/authorize",
        GITHUB_TOKEN_URL: "https://ghe.example/login/oauth/access_token",
        GITHUB_API_URL: "https://ghe.example/api/v3",
        MICROSOFT_CLIENT_ID: "ms",
        MICROSOFT_LOGIN_HOST: "https://login.microsoftonline.us",
        MICROSOFT_API_URL: "https://graph.microsoft.us",
        GOOGLE_CLIENT_ID: "g",
        GOOGLE_CLIENT_SECRET: "s",
        GOOGLE_REVOCATION_URL: "http://127.0.0.1:4000/revoke",
        OAUTH_REDIRECT_URI: "https://app.example/auth/{provider}/callback",
      };
      const config = yield* Effect.withConfigProvider(
        oauthConfigFromEnv,
        ConfigProvider.fromMap(new Map(Object.entries(env))),
      );
      expect(config.providers.github?.endpoints).toEqual({
        authorization: "https://ghe.example/login/oauth/authorize",
        token: "https://ghe.example/login/oauth/access_token",
        api: "https://ghe.example/api/v3",
      });
      expect(config.providers.microsoft?.loginHost).toBe("https://login.microsoftonline.us");
      expect(config.providers.microsoft?.endpoints).toEqual({ api: "https://graph.microsoft.us" });
      expect(config.providers.google?.endpoints).toEqual({
        revocation: "http://127.0.0.1:4000/revoke",
      });
    }),
  );
});
