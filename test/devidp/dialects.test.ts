// Each provider dialect of the development identity provider: authorization redirect,
// token answer shape and client authentication style, profile endpoints and error shapes.
import { createHmac } from "node:crypto";
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as Effect from "effect/Effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEV_TENANT_ID,
  defaultUsers,
  type RunningDevIdentityProvider,
  startDevIdentityProvider,
  subjectOf,
} from "../../src/devidp/index.js";
import {
  FacebookProvider,
  GitHubProvider,
  GoogleProvider,
  MicrosoftProvider,
  type OAuthProviderService,
  type SupportedProvider,
  TwitterProvider,
} from "../../src/oauth/index.js";
import {
  basic,
  clients,
  codeFor,
  get,
  pkce,
  postForm,
  redirectUri,
  signIn,
  standardParams,
  verifyJwt,
} from "./support.js";

let idp: RunningDevIdentityProvider;
beforeAll(async () => {
  idp = await startDevIdentityProvider({ clients });
});
afterAll(() => idp.close());

const user = (key: string) => {
  const found = defaultUsers.find((candidate) => candidate.key === key);
  if (found === undefined) throw new Error(`no test user ${key}`);
  return found;
};
const ada = user("ada");
const alan = user("alan");
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("google", () => {
  it("redirects back with code, state and google's extras; OIDC token answer; userinfo", async () => {
    const { verifier, challenge } = pkce();
    const { answer, location, code } = await signIn(
      idp,
      "google",
      standardParams("google", { challenge, nonce: "nonce-1" }),
    );
    expect(answer.status).toBe(303);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri("google"));
    expect(location.searchParams.get("state")).toBe("state-123");
    expect(location.searchParams.get("scope")).toBe("openid profile email");
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const token = await postForm(
      idp.endpoints("google").token,
      {
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri("google"),
        code_verifier: verifier,
      },
      { authorization: basic("google-dev", "google-secret") },
    );
    expect(token.status).toBe(200);
    expect(token.headers.get("cache-control")).toBe("no-store");
    const body = (await token.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      expires_in: 3599,
      token_type: "Bearer",
      scope: "openid profile email",
    });
    expect(body.refresh_token).toBeUndefined();
    const jwks = await (await get(`${idp.url}/google/oauth2/v3/certs`)).json();
    const claims = verifyJwt(String(body.id_token), jwks);
    expect(claims).toMatchObject({
      iss: `${idp.url}/google`,
      aud: "google-dev",
      azp: "google-dev",
      sub: subjectOf("google", ada),
      email: "ada@example.com",
      email_verified: true,
      nonce: "nonce-1",
    });

    const info = await get(
      `${idp.endpoints("google").api}/v1/userinfo`,
      bearer(String(body.access_token)),
    );
    expect(await info.json()).toEqual({
      sub: subjectOf("google", ada),
      name: "Ada Lovelace",
      given_name: "Ada",
      family_name: "Lovelace",
      picture: `${idp.url}/avatars/ada.svg`,
      email: "ada@example.com",
      email_verified: true,
    });
    const denied = await get(`${idp.endpoints("google").api}/v1/userinfo`, bearer("nope"));
    expect(denied.status).toBe(401);
    expect(denied.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("client_secret_post works too; access_type=offline gives a refresh token that refreshes", async () => {
    const { verifier, challenge } = pkce();
    const { code } = await signIn(idp, "google", {
      ...standardParams("google", { challenge }),
      access_type: "offline",
    });
    const token = await postForm(idp.endpoints("google").token, {
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri("google"),
      code_verifier: verifier,
      client_id: "google-dev",
      client_secret: "google-secret",
    });
    const body = (await token.json()) as Record<string, string>;
    expect(body.refresh_token).toBeTruthy();
    const refreshed = await postForm(
      idp.endpoints("google").token,
      { grant_type: "refresh_token", refresh_token: String(body.refresh_token) },
      { authorization: basic("google-dev", "google-secret") },
    );
    expect(refreshed.status).toBe(200);
    expect(((await refreshed.json()) as Record<string, unknown>).access_token).toBeTruthy();
    const revoked = await postForm(idp.endpoints("google").revocation ?? "", {
      token: body.access_token ?? "",
    });
    expect(revoked.status).toBe(200);
    expect(
      (await get(`${idp.endpoints("google").api}/v1/userinfo`, bearer(body.access_token ?? "")))
        .status,
    ).toBe(401);
  });

  it("a wrong client secret is a 401 invalid_client; the discovery document lists the endpoints", async () => {
    const { code, verifier } = await codeFor(idp, "google");
    const token = await postForm(
      idp.endpoints("google").token,
      {
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri("google"),
        code_verifier: verifier ?? "",
      },
      { authorization: basic("google-dev", "wrong") },
    );
    expect(token.status).toBe(401);
    expect(await token.json()).toMatchObject({ error: "invalid_client" });
    const discovery = (await (
      await get(`${idp.url}/google/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    expect(discovery).toMatchObject({
      issuer: `${idp.url}/google`,
      authorization_endpoint: idp.endpoints("google").authorization,
      token_endpoint: idp.endpoints("google").token,
      userinfo_endpoint: `${idp.endpoints("google").api}/v1/userinfo`,
      code_challenge_methods_supported: ["S256"],
    });
  });

  it("an unverified address is marked so", async () => {
    const { verifier, challenge } = pkce();
    const { code } = await signIn(idp, "google", standardParams("google", { challenge }), "alan");
    const token = (await (
      await postForm(
        idp.endpoints("google").token,
        {
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectUri("google"),
          code_verifier: verifier,
        },
        { authorization: basic("google-dev", "google-secret") },
      )
    ).json()) as Record<string, string>;
    const info = (await (
      await get(`${idp.endpoints("google").api}/v1/userinfo`, bearer(token.access_token ?? ""))
    ).json()) as Record<string, unknown>;
    expect(info).toMatchObject({ email: alan.email, email_verified: false });
  });
});

describe("microsoft", () => {
  it("tenant paths, PKCE, an Entra-shaped ID token, offline_access refresh (rotated), Graph userinfo", async () => {
    const endpoints = idp.endpoints("microsoft");
    expect(endpoints.authorization).toBe(`${idp.url}/microsoft/common/oauth2/v2.0/authorize`);
    expect(endpoints.loginHost).toBe(`${idp.url}/microsoft`);
    const { verifier, challenge } = pkce();
    const { location, code } = await signIn(idp, "microsoft", {
      ...standardParams("microsoft", { challenge, nonce: "n-ms" }),
      scope: "openid profile email offline_access",
    });
    expect(location.searchParams.get("session_state")).toBeTruthy();
    const token = await postForm(
      endpoints.token,
      {
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri("microsoft"),
        code_verifier: verifier,
      },
      { authorization: basic("microsoft-dev", "microsoft-secret") },
    );
    const body = (await token.json()) as Record<string, string | number>;
    expect(body).toMatchObject({
      token_type: "Bearer",
      expires_in: 3599,
      ext_expires_in: 3599,
      scope: "openid profile email",
    });
    const jwks = await (await get(`${idp.url}/microsoft/common/discovery/v2.0/keys`)).json();
    expect(verifyJwt(String(body.id_token), jwks)).toMatchObject({
      ver: "2.0",
      iss: `${idp.url}/microsoft/${DEV_TENANT_ID}/v2.0`,
      aud: "microsoft-dev",
      tid: DEV_TENANT_ID,
      nonce: "n-ms",
      preferred_username: "ada@example.com",
    });
    const info = await get(`${endpoints.api}/oidc/userinfo`, bearer(String(body.access_token)));
    expect(await info.json()).toMatchObject({
      sub: subjectOf("microsoft", ada),
      name: "Ada Lovelace",
      email: "ada@example.com",
    });

    const refreshed = (await (
      await postForm(endpoints.token, {
        grant_type: "refresh_token",
        refresh_token: String(body.refresh_token),
        client_id: "microsoft-dev",
        client_secret: "microsoft-secret",
      })
    ).json()) as Record<string, string>;
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(body.refresh_token);
    const again = await postForm(
      endpoints.token,
      { grant_type: "refresh_token", refresh_token: String(body.refresh_token) },
      { authorization: basic("microsoft-dev", "microsoft-secret") },
    );
    expect(again.status).toBe(400);
    const error = (await again.json()) as Record<string, unknown>;
    expect(error).toMatchObject({ error: "invalid_grant" });
    expect(String(error.error_description)).toMatch(/^AADSTS\d+: /);
    expect(error.error_codes).toBeInstanceOf(Array);
  });

  it("check 37: the ID token says xms_edov true for a verified address, false otherwise", async () => {
    const endpoints = idp.endpoints("microsoft");
    const jwks = await (await get(`${idp.url}/microsoft/common/discovery/v2.0/keys`)).json();
    for (const who of [ada, alan]) {
      const { verifier, challenge } = pkce();
      const { code } = await signIn(
        idp,
        "microsoft",
        standardParams("microsoft", { challenge }),
        who.key,
      );
      const body = (await (
        await postForm(
          endpoints.token,
          {
            grant_type: "authorization_code",
            code,
            redirect_uri: redirectUri("microsoft"),
            code_verifier: verifier,
          },
          { authorization: basic("microsoft-dev", "microsoft-secret") },
        )
      ).json()) as Record<string, unknown>;
      expect(verifyJwt(String(body.id_token), jwks)).toMatchObject({
        sub: subjectOf("microsoft", who),
        email: who.email,
        xms_edov: who.emailVerified,
      });
    }
  });

  it("Graph's error shape for a bad token", async () => {
    const info = await get(`${idp.endpoints("microsoft").api}/oidc/userinfo`, bearer("nope"));
    expect(info.status).toBe(401);
    expect(await info.json()).toMatchObject({ error: { code: "InvalidAuthenticationToken" } });
  });
});

describe("github", () => {
  it("form-encoded token answer by default, JSON on request; /user and /user/emails", async () => {
    const first = await codeFor(idp, "github");
    const form = await postForm(
      idp.endpoints("github").token,
      { grant_type: "authorization_code", code: first.code, redirect_uri: redirectUri("github") },
      { authorization: basic("github-dev", "github-secret") },
    );
    expect(form.headers.get("content-type")).toContain("application/x-www-form-urlencoded");
    const fields = new URLSearchParams(await form.text());
    expect(fields.get("token_type")).toBe("bearer");
    expect(fields.get("scope")).toBe("user:email");

    const second = await codeFor(idp, "github");
    const json = await postForm(
      idp.endpoints("github").token,
      { code: second.code, client_id: "github-dev", client_secret: "github-secret" },
      { accept: "application/json" },
    );
    const token = (await json.json()) as Record<string, string>;
    expect(token).toMatchObject({ token_type: "bearer", scope: "user:email" });
    expect(token.expires_in).toBeUndefined();

    const api = idp.endpoints("github").api;
    const user = await get(`${api}/user`, bearer(token.access_token ?? ""));
    expect(await user.json()).toMatchObject({
      login: "ada",
      id: Number(subjectOf("github", ada)),
      name: "Ada Lovelace",
      avatar_url: `${idp.url}/avatars/ada.svg`,
      email: null,
    });
    expect(user.headers.get("x-oauth-scopes")).toBe("user:email");
    const emails = await get(`${api}/user/emails`, {
      authorization: `token ${token.access_token}`,
    });
    expect(await emails.json()).toContainEqual({
      email: "ada@example.com",
      primary: true,
      verified: true,
      visibility: "private",
    });
  });

  it("failures are 200 with error= (GitHub's style); /user/emails without the scope is 404; bad token 401", async () => {
    const wrong = await postForm(
      idp.endpoints("github").token,
      { code: "not-a-code" },
      { authorization: basic("github-dev", "github-secret"), accept: "application/json" },
    );
    expect(wrong.status).toBe(200);
    expect(await wrong.json()).toMatchObject({ error: "bad_verification_code" });
    const secret = await postForm(
      idp.endpoints("github").token,
      { code: "x", client_id: "github-dev", client_secret: "wrong" },
      { accept: "application/json" },
    );
    expect(await secret.json()).toMatchObject({ error: "incorrect_client_credentials" });

    const { code } = await signIn(idp, "github", {
      ...standardParams("github"),
      scope: "read:user",
    });
    const token = new URLSearchParams(
      await (
        await postForm(
          idp.endpoints("github").token,
          { code },
          { authorization: basic("github-dev", "github-secret") },
        )
      ).text(),
    );
    const emails = await get(
      `${idp.endpoints("github").api}/user/emails`,
      bearer(token.get("access_token") ?? ""),
    );
    expect(emails.status).toBe(404);
    const bad = await get(`${idp.endpoints("github").api}/user`, bearer("nope"));
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ message: "Bad credentials" });
  });
});

describe("facebook", () => {
  it("credentials as form fields (never Basic); Graph /me with picture.data.url and appsecret_proof", async () => {
    const viaBasic = await codeFor(idp, "facebook");
    const refused = await postForm(
      idp.endpoints("facebook").token,
      {
        grant_type: "authorization_code",
        code: viaBasic.code,
        redirect_uri: redirectUri("facebook"),
      },
      { authorization: basic("facebook-dev", "facebook-secret") },
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { type: "OAuthException", code: 1 } });

    const { code } = await codeFor(idp, "facebook");
    const token = (await (
      await postForm(idp.endpoints("facebook").token, {
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri("facebook"),
        client_id: "facebook-dev",
        client_secret: "facebook-secret",
      })
    ).json()) as Record<string, string>;
    expect(token).toMatchObject({ token_type: "bearer", expires_in: 5183944 });
    const accessToken = token.access_token ?? "";
    const proof = createHmac("sha256", "facebook-secret").update(accessToken).digest("hex");
    const me = await get(
      `${idp.endpoints("facebook").api}/me?fields=id,name,email,picture&appsecret_proof=${proof}`,
      bearer(accessToken),
    );
    expect(await me.json()).toEqual({
      id: subjectOf("facebook", ada),
      name: "Ada Lovelace",
      email: "ada@example.com",
      picture: {
        data: { height: 50, is_silhouette: false, url: `${idp.url}/avatars/ada.svg`, width: 50 },
      },
    });
    const badProof = await get(
      `${idp.endpoints("facebook").api}/me?fields=id&appsecret_proof=${"0".repeat(64)}`,
      bearer(accessToken),
    );
    expect(badProof.status).toBe(400);
    expect(await badProof.json()).toMatchObject({ error: { code: 100 } });
  });

  it("Graph's error shape for a bad token and a reused code", async () => {
    const me = await get(`${idp.endpoints("facebook").api}/me?fields=id`, bearer("nope"));
    expect(me.status).toBe(400);
    expect(await me.json()).toMatchObject({
      error: { type: "OAuthException", code: 190, fbtrace_id: expect.any(String) },
    });
    const { code } = await codeFor(idp, "facebook");
    const fields = {
      code,
      redirect_uri: redirectUri("facebook"),
      client_id: "facebook-dev",
      client_secret: "facebook-secret",
    };
    expect((await postForm(idp.endpoints("facebook").token, fields)).status).toBe(200);
    const reused = await postForm(idp.endpoints("facebook").token, fields);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: { code: 100, error_subcode: 36009 } });
  });
});

describe("twitter", () => {
  it("public client with PKCE; /2/users/me with data and no email; offline.access rotates refresh tokens", async () => {
    const { verifier, challenge } = pkce();
    const { code } = await signIn(idp, "twitter", {
      ...standardParams("twitter", { challenge }),
      scope: "users.read tweet.read offline.access",
    });
    const token = (await (
      await postForm(idp.endpoints("twitter").token, {
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri("twitter"),
        code_verifier: verifier,
        client_id: "twitter-dev",
      })
    ).json()) as Record<string, string>;
    expect(token).toMatchObject({
      token_type: "bearer",
      expires_in: 7200,
      scope: "users.read tweet.read offline.access",
    });
    const me = await get(
      `${idp.endpoints("twitter").api}/2/users/me?user.fields=profile_image_url`,
      bearer(token.access_token ?? ""),
    );
    expect(await me.json()).toEqual({
      data: {
        id: subjectOf("twitter", ada),
        name: "Ada Lovelace",
        username: "ada",
        profile_image_url: `${idp.url}/avatars/ada.svg`,
      },
    });
    const refreshed = (await (
      await postForm(idp.endpoints("twitter").token, {
        grant_type: "refresh_token",
        refresh_token: token.refresh_token ?? "",
        client_id: "twitter-dev",
      })
    ).json()) as Record<string, string>;
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(token.refresh_token);
  });

  it("a public client may not send a secret; a bad token is a 401 problem", async () => {
    const { code, verifier } = await codeFor(idp, "twitter");
    const answer = await postForm(
      idp.endpoints("twitter").token,
      {
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri("twitter"),
        code_verifier: verifier ?? "",
      },
      { authorization: basic("twitter-dev", "anything") },
    );
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: "unauthorized_client" });
    const me = await get(`${idp.endpoints("twitter").api}/2/users/me`, bearer("nope"));
    expect(me.status).toBe(401);
    expect(await me.json()).toMatchObject({ title: "Unauthorized", status: 401 });
  });
});

describe("check 37: the live providers read each dialect's verification marks", () => {
  /** The live provider of `name`, signing in at the development identity provider. */
  const liveProvider = (name: SupportedProvider): Effect.Effect<OAuthProviderService, unknown> => {
    const client = clients[name];
    if (client === undefined) throw new Error(`no client for ${name}`);
    const credentials = {
      clientId: client.clientId,
      clientSecret: client.clientSecret ?? null,
      redirectUri: client.redirectUri,
    };
    const { authorization, token, revocation, api, loginHost } = idp.endpoints(name);
    const endpoints = {
      authorization,
      token,
      api,
      ...(revocation === undefined ? {} : { revocation }),
    };
    const make = {
      google: () =>
        GoogleProvider.make({ ...credentials, clientSecret: "google-secret", endpoints }),
      microsoft: () => MicrosoftProvider.make({ ...credentials, loginHost, endpoints: { api } }),
      github: () =>
        GitHubProvider.make({ ...credentials, clientSecret: "github-secret", endpoints }),
      facebook: () =>
        FacebookProvider.make({ ...credentials, clientSecret: "facebook-secret", endpoints }),
      twitter: () => TwitterProvider.make({ ...credentials, endpoints }),
    }[name];
    return make().pipe(Effect.provide(FetchHttpClient.layer));
  };

  /** Signs `user` in with `name`'s live provider: code exchange, then the profile. */
  const profileOf = async (name: SupportedProvider, user: string) => {
    const provider = await Effect.runPromise(liveProvider(name));
    const { verifier, challenge } = pkce();
    const { code } = await signIn(
      idp,
      name,
      standardParams(name, {
        ...(provider.pkce ? { challenge } : {}),
        ...(provider.oidc ? { nonce: "n-37" } : {}),
      }),
      user,
    );
    return Effect.runPromise(
      Effect.flatMap(
        provider.exchangeCode({
          code,
          ...(provider.pkce ? { codeVerifier: verifier } : {}),
          ...(provider.oidc ? { nonce: "n-37" } : {}),
        }),
        (tokens) => provider.fetchProfile(tokens.accessToken, tokens),
      ),
    );
  };

  const cases: ReadonlyArray<{
    readonly provider: SupportedProvider;
    readonly verified: Record<string, unknown>;
    readonly unverified: Record<string, unknown>;
  }> = [
    {
      provider: "google",
      verified: { email: ada.email, emailVerified: true },
      unverified: {},
    },
    {
      provider: "microsoft",
      verified: { email: ada.email, emailVerified: true },
      unverified: { email: alan.email, emailVerified: false },
    },
    { provider: "github", verified: { email: ada.email, emailVerified: true }, unverified: {} },
    { provider: "facebook", verified: { email: ada.email, emailVerified: true }, unverified: {} },
    { provider: "twitter", verified: {}, unverified: {} },
  ];

  for (const c of cases) {
    it(`${c.provider}: a verified and an unverified address`, async () => {
      const verified = await profileOf(c.provider, ada.key);
      const unverified = await profileOf(c.provider, alan.key);
      const emailOf = ({ email, emailVerified }: { email?: string; emailVerified?: boolean }) => ({
        ...(email === undefined ? {} : { email }),
        ...(emailVerified === undefined ? {} : { emailVerified }),
      });
      expect(emailOf(verified)).toEqual(c.verified);
      expect(emailOf(unverified)).toEqual(c.unverified);
      expect(verified.id).toBe(subjectOf(c.provider, ada));
      expect(unverified.id).toBe(subjectOf(c.provider, alan));
    });
  }
});

describe("startDevIdentityProvider", () => {
  it("rejects a non-loopback host with the DevIdentityProviderError", async () => {
    await expect(startDevIdentityProvider({ clients, host: "0.0.0.0" })).rejects.toMatchObject({
      _tag: "DevIdentityProviderError",
      reason: "non_loopback",
    });
  });

  it("an unregistered dialect refuses every client", async () => {
    const only = await startDevIdentityProvider({ clients: { github: clients.github } });
    const page = await get(`${only.endpoints("google").authorization}?client_id=google-dev`);
    expect(page.status).toBe(400);
    await only.close();
  });
});
