import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Redacted from "effect/Redacted";
import * as TestClock from "effect/TestClock";
import {
  FacebookProvider,
  GitHubProvider,
  GoogleProvider,
  MicrosoftProvider,
  type OAuthTokens,
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
  idToken,
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

interface Case {
  readonly name: SupportedProvider;
  readonly make: Make;
  readonly authorizeEndpoint: string;
  readonly tokenEndpoint: string;
  readonly pkce: boolean;
  readonly scope: string;
  /** How the client authenticates at the token endpoint. */
  readonly clientAuth: "basic" | "body";
  readonly mockProfile: () => void;
  readonly user: Record<string, string | boolean>;
}

const cases: ReadonlyArray<Case> = [
  {
    name: "google",
    make: live(GoogleProvider.make(credentials("google"))),
    authorizeEndpoint: "https://accounts.google.com/o/oauth2/v2/auth",
    tokenEndpoint: "https://oauth2.googleapis.com/token",
    pkce: true,
    scope: "openid profile email",
    clientAuth: "basic",
    mockProfile: () => net.on("GET", GoogleProvider.userinfoEndpoint, { json: googleUserinfo }),
    user: {
      id: "110169484474386276334",
      email: "ada@example.com",
      emailVerified: true,
      name: "Ada Lovelace",
      picture: googleUserinfo.picture,
    },
  },
  {
    name: "microsoft",
    make: live(MicrosoftProvider.make(credentials("microsoft"))),
    authorizeEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    tokenEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
    pkce: true,
    scope: "openid profile email",
    clientAuth: "basic",
    mockProfile: () =>
      net.on("GET", MicrosoftProvider.userinfoEndpoint, { json: microsoftUserinfo }),
    user: {
      id: microsoftUserinfo.sub,
      email: "grace@contoso.com",
      // No ID token here, so no `xms_edov`: Entra's email is not presented as verified.
      emailVerified: false,
      name: "Grace Hopper",
      picture: microsoftUserinfo.picture,
    },
  },
  {
    name: "github",
    make: live(GitHubProvider.make(credentials("github"))),
    authorizeEndpoint: "https://github.com/login/oauth/authorize",
    tokenEndpoint: "https://github.com/login/oauth/access_token",
    pkce: false,
    scope: "user:email",
    clientAuth: "basic",
    mockProfile: () => {
      net.on("GET", "https://api.github.com/user", { json: githubUser });
      net.on("GET", "https://api.github.com/user/emails", { json: githubEmails });
    },
    user: {
      id: "583231",
      email: "octocat@github.com",
      emailVerified: true,
      name: "The Octocat",
      picture: githubUser.avatar_url,
    },
  },
  {
    name: "facebook",
    make: live(FacebookProvider.make(credentials("facebook"))),
    authorizeEndpoint: "https://www.facebook.com/v16.0/dialog/oauth",
    tokenEndpoint: "https://graph.facebook.com/v16.0/oauth/access_token",
    pkce: false,
    scope: "email public_profile",
    clientAuth: "body",
    mockProfile: () => net.on("GET", "https://graph.facebook.com/me", { json: facebookMe }),
    user: {
      id: "10158566754583392",
      email: "mark@example.com",
      emailVerified: true,
      name: "Mark Example",
      picture: facebookMe.picture.data.url,
    },
  },
  {
    name: "twitter",
    make: live(TwitterProvider.make(credentials("twitter"))),
    authorizeEndpoint: "https://twitter.com/i/oauth2/authorize",
    tokenEndpoint: "https://api.twitter.com/2/oauth2/token",
    pkce: true,
    scope: "users.read tweet.read",
    clientAuth: "basic",
    mockProfile: () => net.on("GET", "https://api.twitter.com/2/users/me", { json: twitterMe }),
    user: { id: "2244994945", name: "Developers", picture: twitterMe.data.profile_image_url },
  },
];

const reveal = (tokens: OAuthTokens) => ({
  accessToken: Redacted.value(tokens.accessToken),
  refreshToken: tokens.refreshToken === undefined ? undefined : Redacted.value(tokens.refreshToken),
  expiresAt: tokens.expiresAt,
});

for (const c of cases) {
  describe(`${c.name} (live, arctic)`, () => {
    it.effect("authorization URL: endpoint, client_id, redirect_uri, scopes, state, PKCE", () =>
      Effect.gen(function* () {
        const provider = yield* c.make;
        expect(provider.name).toBe(c.name);
        expect(provider.pkce).toBe(c.pkce);
        const url = yield* provider.authorizationUrl({
          state: "state-abc",
          scopes: provider.defaultScopes,
          ...(c.pkce ? { codeVerifier: VERIFIER } : {}),
        });
        expect(`${url.origin}${url.pathname}`).toBe(c.authorizeEndpoint);
        const params = Object.fromEntries(url.searchParams);
        expect(params).toMatchObject({
          response_type: "code",
          client_id: `${c.name}-client-id`,
          redirect_uri: REDIRECT(c.name),
          state: "state-abc",
          scope: c.scope,
        });
        if (c.pkce) {
          expect(params.code_challenge_method).toBe("S256");
          expect(params.code_challenge).toBe(s256(VERIFIER));
        } else {
          expect(params.code_challenge).toBeUndefined();
          expect(params.code_challenge_method).toBeUndefined();
        }
        expect(url.toString()).not.toContain(VERIFIER);
        expect(url.toString()).not.toContain(SECRET);
      }),
    );

    it.effect("token exchange: configured redirect_uri, client authentication, verifier", () =>
      Effect.gen(function* () {
        const provider = yield* c.make;
        net.on("POST", c.tokenEndpoint, { json: fullTokens() });
        yield* provider.exchangeCode({
          code: "the-code",
          ...(c.pkce ? { codeVerifier: VERIFIER } : {}),
        });
        expect(net.seen).toHaveLength(1);
        const request = net.seen[0];
        expect(request.method).toBe("POST");
        expect(`${request.origin}${request.path}`).toBe(c.tokenEndpoint);
        expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
        const fields = form(request);
        expect(fields.grant_type).toBe("authorization_code");
        expect(fields.code).toBe("the-code");
        expect(fields.redirect_uri).toBe(REDIRECT(c.name));
        if (c.pkce) expect(fields.code_verifier).toBe(VERIFIER);
        else expect(fields.code_verifier).toBeUndefined();
        if (c.clientAuth === "basic") {
          expect(basicCredentials(request)).toBe(`${c.name}-client-id:${SECRET}`);
          expect(fields.client_secret).toBeUndefined();
        } else {
          expect(basicCredentials(request)).toBeUndefined();
          expect(fields.client_id).toBe(`${c.name}-client-id`);
          expect(fields.client_secret).toBe(SECRET);
        }
      }),
    );

    it.effect("token parsing: refresh token and expiry when sent (expiry from the Clock)", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2030, 0, 1));
        const provider = yield* c.make;
        net.on("POST", c.tokenEndpoint, { json: fullTokens() });
        const tokens = yield* provider.exchangeCode({
          code: "code",
          ...(c.pkce ? { codeVerifier: VERIFIER } : {}),
        });
        expect(reveal(tokens)).toEqual({
          accessToken: ACCESS_TOKEN,
          refreshToken: REFRESH_TOKEN,
          expiresAt: new Date(Date.UTC(2030, 0, 1) + 3600_000),
        });
        expect(String(tokens.accessToken)).not.toContain(ACCESS_TOKEN);
      }),
    );

    it.effect("token parsing: no refresh token and no expiry -> both absent, no crash", () =>
      Effect.gen(function* () {
        const provider = yield* c.make;
        net.on("POST", c.tokenEndpoint, {
          json: { access_token: ACCESS_TOKEN, token_type: "bearer", scope: "" },
        });
        const tokens = yield* provider.exchangeCode({
          code: "code",
          ...(c.pkce ? { codeVerifier: VERIFIER } : {}),
        });
        expect(reveal(tokens)).toEqual({
          accessToken: ACCESS_TOKEN,
          refreshToken: undefined,
          expiresAt: undefined,
        });
        expect("refreshToken" in tokens).toBe(false);
        expect("expiresAt" in tokens).toBe(false);
      }),
    );

    it.effect("token response without access_token -> TokenResponseMalformed", () =>
      Effect.gen(function* () {
        const provider = yield* c.make;
        net.on("POST", c.tokenEndpoint, { json: { token_type: "bearer" } });
        const error = yield* Effect.flip(
          provider.exchangeCode({ code: "code", ...(c.pkce ? { codeVerifier: VERIFIER } : {}) }),
        );
        expect(error._tag).toBe("TokenResponseMalformed");
      }),
    );

    it.effect("a rejected code (invalid_grant) -> CodeRejected, description dropped", () =>
      Effect.gen(function* () {
        const provider = yield* c.make;
        // GitHub answers 200 with an error body; the others 400.
        net.on("POST", c.tokenEndpoint, {
          status: c.name === "github" ? 200 : 400,
          json: { error: "invalid_grant", error_description: "UPSTREAM-DESCRIPTION" },
        });
        const error = yield* Effect.flip(
          provider.exchangeCode({ code: "code", ...(c.pkce ? { codeVerifier: VERIFIER } : {}) }),
        );
        expect(error).toMatchObject({ _tag: "CodeRejected", oauthError: "invalid_grant" });
        expect(JSON.stringify(error)).not.toContain("UPSTREAM-DESCRIPTION");
      }),
    );

    it.effect("profile mapped from a realistic payload, bearer token and User-Agent sent", () =>
      Effect.gen(function* () {
        const provider = yield* c.make;
        c.mockProfile();
        const user = yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN));
        expect(user).toEqual(c.user);
        expect(net.seen.length).toBeGreaterThan(0);
        for (const request of net.seen) {
          expect(request.method).toBe("GET");
          expect(request.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
          expect(request.headers["user-agent"]).toBe("strata-oauth/0.1");
        }
      }),
    );
  });
}

describe("provider specifics", () => {
  it.effect("google: offline adds access_type=offline; the nonce is sent as given", () =>
    Effect.gen(function* () {
      const provider = yield* live(GoogleProvider.make(credentials("google")));
      const url = yield* provider.authorizationUrl({
        state: "s",
        codeVerifier: VERIFIER,
        scopes: ["openid"],
        nonce: "nonce-hash",
        offline: true,
      });
      expect(url.searchParams.get("access_type")).toBe("offline");
      expect(url.searchParams.get("nonce")).toBe("nonce-hash");
      const online = yield* provider.authorizationUrl({
        state: "s",
        codeVerifier: VERIFIER,
        scopes: ["openid"],
      });
      expect(online.searchParams.has("access_type")).toBe(false);
    }),
  );

  it.effect(
    "check 37: google: a verified email has emailVerified true; an unverified one is dropped",
    () =>
      Effect.gen(function* () {
        const provider = yield* live(GoogleProvider.make(credentials("google")));
        const profile = (emailVerified: unknown) => {
          const { email_verified: _, ...rest } = googleUserinfo;
          net.on("GET", GoogleProvider.userinfoEndpoint, {
            json: emailVerified === undefined ? rest : { ...rest, email_verified: emailVerified },
          });
          return provider.fetchProfile(Redacted.make(ACCESS_TOKEN));
        };
        for (const verified of [true, "true"]) {
          expect(yield* profile(verified)).toMatchObject({
            email: "ada@example.com",
            emailVerified: true,
          });
        }
        for (const unverified of [false, "false", undefined, null]) {
          const user = yield* profile(unverified);
          expect(user.email).toBeUndefined();
          expect(user).not.toHaveProperty("emailVerified");
          expect(user.id).toBe(googleUserinfo.sub);
        }
      }),
  );

  it.effect("google: an ID token must carry the expected nonce", () =>
    Effect.gen(function* () {
      const provider = yield* live(GoogleProvider.make(credentials("google")));
      net.on("POST", "https://oauth2.googleapis.com/token", {
        json: fullTokens({ id_token: idToken({ sub: "1", nonce: "expected" }) }),
      });
      const ok = yield* provider.exchangeCode({
        code: "c",
        codeVerifier: VERIFIER,
        nonce: "expected",
      });
      expect(ok.idToken).toBeDefined();
      net.on("POST", "https://oauth2.googleapis.com/token", {
        json: fullTokens({ id_token: idToken({ sub: "1", nonce: "other" }) }),
      });
      const error = yield* Effect.flip(
        provider.exchangeCode({ code: "c", codeVerifier: VERIFIER, nonce: "expected" }),
      );
      expect(error._tag).toBe("TokenResponseMalformed");
    }),
  );

  it.effect("google: refresh and revoke requests", () =>
    Effect.gen(function* () {
      const provider = yield* live(GoogleProvider.make(credentials("google")));
      net.on("POST", "https://oauth2.googleapis.com/token", {
        json: { access_token: "new-access", expires_in: 60, token_type: "Bearer" },
      });
      const refreshed = yield* (provider.refreshToken ?? Effect.die)(Redacted.make(REFRESH_TOKEN));
      expect(Redacted.value(refreshed.accessToken)).toBe("new-access");
      expect(form(net.seen[0])).toMatchObject({
        grant_type: "refresh_token",
        refresh_token: REFRESH_TOKEN,
      });
      net.on("POST", "https://oauth2.googleapis.com/revoke", { status: 200, text: "" });
      yield* (provider.revokeToken ?? Effect.die)(Redacted.make(ACCESS_TOKEN));
      expect(form(net.seen[1])).toEqual({ token: ACCESS_TOKEN });
    }),
  );

  it.effect("microsoft: tenant in the endpoints, offline_access on demand, issuer check", () =>
    Effect.gen(function* () {
      const provider = yield* live(
        MicrosoftProvider.make({ ...credentials("microsoft"), tenant: "contoso.onmicrosoft.com" }),
      );
      const url = yield* provider.authorizationUrl({
        state: "s",
        codeVerifier: VERIFIER,
        scopes: ["openid", "profile", "email"],
        offline: true,
      });
      expect(url.pathname).toBe("/contoso.onmicrosoft.com/oauth2/v2.0/authorize");
      expect(url.searchParams.get("scope")).toBe("openid profile email offline_access");
      expect(
        provider.acceptsIssuer("https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0"),
      ).toBe(true);
      expect(provider.acceptsIssuer("https://login.microsoftonline.com/other/v2.0")).toBe(false);
      const common = yield* live(MicrosoftProvider.make(credentials("microsoft")));
      expect(
        common.acceptsIssuer(
          "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0",
        ),
      ).toBe(true);
      expect(common.acceptsIssuer("https://evil.example/9188040d/v2.0")).toBe(false);
    }),
  );

  it.effect("microsoft: a public client (no secret) sends client_id and no Basic auth", () =>
    Effect.gen(function* () {
      const provider = yield* live(
        MicrosoftProvider.make({ clientId: "pub", redirectUri: REDIRECT("microsoft") }),
      );
      net.on("POST", "https://login.microsoftonline.com/common/oauth2/v2.0/token", {
        json: fullTokens(),
      });
      yield* provider.exchangeCode({ code: "c", codeVerifier: VERIFIER });
      expect(basicCredentials(net.seen[0])).toBeUndefined();
      expect(form(net.seen[0])).toMatchObject({ client_id: "pub", code_verifier: VERIFIER });
    }),
  );

  it.effect("microsoft: an invalid tenant is a configuration error", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        live(MicrosoftProvider.make({ ...credentials("microsoft"), tenant: "../evil" })),
      );
      expect(error).toMatchObject({ _tag: "OAuthConfigError" });
    }),
  );

  describe("check 37: microsoft: the email is verified only with xms_edov true", () => {
    /** The profile read with an ID token of `claims` (Grace's subject and email by default). */
    const profileWith = (claims: Record<string, unknown> | undefined, rawIdToken?: string) =>
      Effect.gen(function* () {
        const provider = yield* live(MicrosoftProvider.make(credentials("microsoft")));
        net.on("GET", MicrosoftProvider.userinfoEndpoint, { json: microsoftUserinfo });
        const token =
          rawIdToken ??
          (claims === undefined
            ? undefined
            : idToken({ sub: microsoftUserinfo.sub, email: microsoftUserinfo.email, ...claims }));
        return yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN), {
          accessToken: Redacted.make(ACCESS_TOKEN),
          ...(token === undefined ? {} : { idToken: Redacted.make(token) }),
        });
      });

    it.effect("no xms_edov claim -> emailVerified false, the email kept", () =>
      Effect.gen(function* () {
        const user = yield* profileWith({});
        expect(user).toMatchObject({ email: "grace@contoso.com", emailVerified: false });
      }),
    );

    it.effect("xms_edov true -> emailVerified true", () =>
      Effect.gen(function* () {
        for (const yes of [true, "true", "1"]) {
          const user = yield* profileWith({ xms_edov: yes });
          expect(user).toMatchObject({ email: "grace@contoso.com", emailVerified: true });
        }
      }),
    );

    it.effect('xms_edov false, "0", "false", null or 1 -> emailVerified false', () =>
      Effect.gen(function* () {
        for (const no of [false, "0", "false", null, 1, {}]) {
          const user = yield* profileWith({ xms_edov: no });
          expect(user).toMatchObject({ email: "grace@contoso.com", emailVerified: false });
        }
      }),
    );

    it.effect("no ID token, an unreadable one, another sub or another email -> false", () =>
      Effect.gen(function* () {
        const cases = [
          profileWith(undefined),
          profileWith(undefined, "not-a-jwt"),
          profileWith({ xms_edov: true, sub: "someone-else" }),
          profileWith({ xms_edov: true, email: "victim@contoso.com" }),
        ];
        for (const profile of cases) {
          expect(yield* profile).toMatchObject({
            id: microsoftUserinfo.sub,
            email: "grace@contoso.com",
            emailVerified: false,
          });
        }
      }),
    );

    it.effect("no email in the userinfo -> neither email nor emailVerified", () =>
      Effect.gen(function* () {
        const provider = yield* live(MicrosoftProvider.make(credentials("microsoft")));
        const { email: _, ...noEmail } = microsoftUserinfo;
        net.on("GET", MicrosoftProvider.userinfoEndpoint, { json: noEmail });
        const user = yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN), {
          accessToken: Redacted.make(ACCESS_TOKEN),
          idToken: Redacted.make(idToken({ sub: microsoftUserinfo.sub, xms_edov: true })),
        });
        expect(user).toEqual({
          id: microsoftUserinfo.sub,
          name: "Grace Hopper",
          picture: microsoftUserinfo.picture,
        });
      }),
    );
  });

  it.effect("github: a token without expiry (OAuth App) gives no expiresAt", () =>
    Effect.gen(function* () {
      const provider = yield* live(GitHubProvider.make(credentials("github")));
      net.on("POST", "https://github.com/login/oauth/access_token", {
        json: {
          access_token: "gho_16C7e42F292c6912E7710c838347Ae178B4a",
          token_type: "bearer",
          scope: "user:email",
        },
      });
      const tokens = yield* provider.exchangeCode({ code: "c" });
      expect(tokens.expiresAt).toBeUndefined();
      expect(tokens.refreshToken).toBeUndefined();
      expect(tokens.scopes).toEqual(["user:email"]);
    }),
  );

  it.effect(
    "github: no user:email grant (403 on /user/emails) -> no email, name falls back to login",
    () =>
      Effect.gen(function* () {
        const provider = yield* live(GitHubProvider.make(credentials("github")));
        net.on("GET", "https://api.github.com/user", { json: { ...githubUser, name: null } });
        net.on("GET", "https://api.github.com/user/emails", {
          status: 403,
          json: { message: "x" },
        });
        const user = yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN));
        expect(user).toEqual({ id: "583231", name: "octocat", picture: githubUser.avatar_url });
        const apiVersion = net.seen.map((s) => s.headers["x-github-api-version"]);
        expect(apiVersion).toEqual(["2022-11-28", "2022-11-28"]);
      }),
  );

  it.effect("check 37: github: the primary verified address has emailVerified true", () =>
    Effect.gen(function* () {
      const provider = yield* live(GitHubProvider.make(credentials("github")));
      net.on("GET", "https://api.github.com/user", { json: githubUser });
      net.on("GET", "https://api.github.com/user/emails", { json: githubEmails });
      expect(yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN))).toMatchObject({
        email: "octocat@github.com",
        emailVerified: true,
      });
    }),
  );

  it.effect(
    "check 37: github: an unverified primary gives no email (not another verified address)",
    () =>
      Effect.gen(function* () {
        const provider = yield* live(GitHubProvider.make(credentials("github")));
        net.on("GET", "https://api.github.com/user", { json: githubUser });
        net.on("GET", "https://api.github.com/user/emails", {
          json: [
            { email: "a@b.c", primary: true, verified: false },
            { email: "other@b.c", primary: false, verified: true },
          ],
        });
        const user = yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN));
        expect(user.email).toBeUndefined();
        expect(user).not.toHaveProperty("emailVerified");
      }),
  );

  it.effect("check 37: facebook: a returned email is confirmed (true); none, no flag", () =>
    Effect.gen(function* () {
      const provider = yield* live(FacebookProvider.make(credentials("facebook")));
      net.on("GET", "https://graph.facebook.com/me", { json: facebookMe });
      expect(yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN))).toMatchObject({
        email: "mark@example.com",
        emailVerified: true,
      });
      const { email: _, ...noEmail } = facebookMe;
      net.on("GET", "https://graph.facebook.com/me", { json: noEmail });
      const user = yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN));
      expect(user.email).toBeUndefined();
      expect(user).not.toHaveProperty("emailVerified");
    }),
  );

  it.effect("facebook: profile fields and appsecret_proof in the Graph request", () =>
    Effect.gen(function* () {
      const provider = yield* live(FacebookProvider.make(credentials("facebook")));
      net.on("GET", "https://graph.facebook.com/me", { json: facebookMe });
      yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN));
      const query = new URLSearchParams(net.seen[0].path.split("?")[1]);
      expect(query.get("fields")).toBe("id,name,email,picture");
      expect(query.get("appsecret_proof")).toMatch(/^[0-9a-f]{64}$/);
      expect(net.seen[0].path).not.toContain(ACCESS_TOKEN);
      expect(provider.refreshToken).toBeUndefined();
    }),
  );

  it.effect("twitter: offline adds offline.access; public client; user.fields asked", () =>
    Effect.gen(function* () {
      const provider = yield* live(
        TwitterProvider.make({
          clientId: "tw",
          clientSecret: null,
          redirectUri: REDIRECT("twitter"),
        }),
      );
      const url = yield* provider.authorizationUrl({
        state: "s",
        codeVerifier: VERIFIER,
        scopes: provider.defaultScopes,
        offline: true,
      });
      expect(url.searchParams.get("scope")).toBe("users.read tweet.read offline.access");
      net.on("POST", "https://api.twitter.com/2/oauth2/token", { json: fullTokens() });
      const tokens = yield* provider.exchangeCode({ code: "c", codeVerifier: VERIFIER });
      expect(tokens.refreshToken).toBeDefined();
      expect(basicCredentials(net.seen[0])).toBeUndefined();
      expect(form(net.seen[0])).toMatchObject({ client_id: "tw", code_verifier: VERIFIER });
      net.on("GET", "https://api.twitter.com/2/users/me", { json: twitterMe });
      const user = yield* provider.fetchProfile(tokens.accessToken);
      expect(user.email).toBeUndefined();
      expect(net.seen[1].path).toBe("/2/users/me?user.fields=profile_image_url");
    }),
  );

  it.effect("check 37: twitter: no email, so no emailVerified either", () =>
    Effect.gen(function* () {
      const provider = yield* live(TwitterProvider.make(credentials("twitter")));
      net.on("GET", "https://api.twitter.com/2/users/me", { json: twitterMe });
      const user = yield* provider.fetchProfile(Redacted.make(ACCESS_TOKEN));
      expect(user).not.toHaveProperty("email");
      expect(user).not.toHaveProperty("emailVerified");
    }),
  );

  it.effect("a profile over the size cap -> ProfileFetchFailed too_large", () =>
    Effect.gen(function* () {
      const provider = yield* live(
        GoogleProvider.make(credentials("google"), { maxProfileBytes: 1024 }),
      );
      net.on("GET", GoogleProvider.userinfoEndpoint, {
        json: { ...googleUserinfo, padding: "x".repeat(4096) },
      });
      const error = yield* Effect.flip(provider.fetchProfile(Redacted.make(ACCESS_TOKEN)));
      expect(error).toMatchObject({ _tag: "ProfileFetchFailed", reason: "too_large" });
    }),
  );

  it.effect(
    "a profile of the wrong shape -> ProfileFetchFailed malformed; 5xx -> unreachable",
    () =>
      Effect.gen(function* () {
        const provider = yield* live(GoogleProvider.make(credentials("google")));
        net.on("GET", GoogleProvider.userinfoEndpoint, { json: { name: "no sub" } });
        const malformed = yield* Effect.flip(provider.fetchProfile(Redacted.make(ACCESS_TOKEN)));
        expect(malformed).toMatchObject({ _tag: "ProfileFetchFailed", reason: "malformed" });
        net.on("GET", GoogleProvider.userinfoEndpoint, { status: 503, text: "down" });
        const down = yield* Effect.flip(provider.fetchProfile(Redacted.make(ACCESS_TOKEN)));
        expect(down).toMatchObject({ _tag: "ProviderUnreachable", status: 503 });
        net.on("GET", GoogleProvider.userinfoEndpoint, { status: 401, json: { error: "x" } });
        const refused = yield* Effect.flip(provider.fetchProfile(Redacted.make(ACCESS_TOKEN)));
        expect(refused).toMatchObject({
          _tag: "ProfileFetchFailed",
          reason: "status",
          status: 401,
        });
      }),
  );

  it.effect("token endpoint: unreachable, 500 and non-JSON answers are told apart", () =>
    Effect.gen(function* () {
      const provider = yield* live(GitHubProvider.make(credentials("github")));
      const token = "https://github.com/login/oauth/access_token";
      net.on("POST", token, { networkError: true });
      const unreachable = yield* Effect.flip(provider.exchangeCode({ code: "c" }));
      expect(unreachable).toMatchObject({ _tag: "ProviderUnreachable" });
      net.on("POST", token, { status: 500, text: "<html>oops</html>" });
      const server = yield* Effect.flip(provider.exchangeCode({ code: "c" }));
      expect(server).toMatchObject({ _tag: "ProviderUnreachable", status: 500 });
      net.on("POST", token, { status: 200, text: "not json" });
      const malformed = yield* Effect.flip(provider.exchangeCode({ code: "c" }));
      expect(malformed).toMatchObject({ _tag: "TokenResponseMalformed", status: 200 });
    }),
  );

  it.live("a hanging token endpoint -> ProviderTimeout within the configured timeout", () =>
    Effect.gen(function* () {
      const provider = yield* live(
        GitHubProvider.make(credentials("github"), { timeout: "150 millis" }),
      );
      net.on("POST", "https://github.com/login/oauth/access_token", {
        json: fullTokens(),
        delayMs: 5_000,
      });
      const started = Date.now();
      const error = yield* Effect.flip(provider.exchangeCode({ code: "c" }));
      expect(error).toMatchObject({ _tag: "ProviderTimeout", operation: "token" });
      expect(Date.now() - started).toBeLessThan(2_000);
    }),
  );

  it.live("a hanging profile endpoint -> ProviderTimeout (the request is aborted)", () =>
    Effect.gen(function* () {
      const provider = yield* live(
        TwitterProvider.make(credentials("twitter"), { timeout: "150 millis" }),
      );
      net.on("GET", "https://api.twitter.com/2/users/me", { json: twitterMe, delayMs: 5_000 });
      const started = Date.now();
      const error = yield* Effect.flip(provider.fetchProfile(Redacted.make(ACCESS_TOKEN)));
      expect(error).toMatchObject({ _tag: "ProviderTimeout", operation: "profile" });
      expect(Date.now() - started).toBeLessThan(2_000);
    }),
  );

  it.effect("configuration errors: empty client id, relative redirect URI", () =>
    Effect.gen(function* () {
      const noId = yield* Effect.either(
        live(GitHubProvider.make({ ...credentials("github"), clientId: "" })),
      );
      expect(Either.isLeft(noId)).toBe(true);
      const relative = yield* Effect.either(
        live(GitHubProvider.make({ ...credentials("github"), redirectUri: "/callback" })),
      );
      expect(Either.isLeft(relative)).toBe(true);
    }),
  );
});
