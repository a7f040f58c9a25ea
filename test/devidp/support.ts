// Drives the development identity provider as a browser and a client would: the
// authorization request, the sign-in page's form, and token and profile requests in each
// provider's own style, over real loopback HTTP.
import { createHash, createPublicKey, randomBytes, verify } from "node:crypto";
import type { DevClients, RunningDevIdentityProvider } from "../../src/devidp/index.js";
import type { SupportedProvider } from "../../src/oauth/index.js";

export const redirectUri = (provider: SupportedProvider) =>
  `http://localhost:3000/auth/${provider}/callback`;

/** One client per dialect: microsoft confidential, twitter public (PKCE only). */
export const clients: DevClients = {
  google: {
    clientId: "google-dev",
    clientSecret: "google-secret",
    redirectUri: redirectUri("google"),
  },
  microsoft: {
    clientId: "microsoft-dev",
    clientSecret: "microsoft-secret",
    redirectUri: redirectUri("microsoft"),
  },
  github: {
    clientId: "github-dev",
    clientSecret: "github-secret",
    redirectUri: redirectUri("github"),
  },
  facebook: {
    clientId: "facebook-dev",
    clientSecret: "facebook-secret",
    redirectUri: redirectUri("facebook"),
  },
  twitter: { clientId: "twitter-dev", clientSecret: null, redirectUri: redirectUri("twitter") },
};

export const defaultScopes: Record<SupportedProvider, string> = {
  google: "openid profile email",
  microsoft: "openid profile email",
  github: "user:email",
  facebook: "email public_profile",
  twitter: "users.read tweet.read",
};

export const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

/** The base URL of a dev IdP address (for tests that only know `url`). */
export type Idp = Pick<RunningDevIdentityProvider, "url" | "endpoints">;

/** GET without following redirects. */
export const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { redirect: "manual", headers });

/** POST a form without following redirects. */
export const postForm = (
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

/** The authorization URL a client would build. */
export const authorizationUrl = (
  idp: Idp,
  provider: SupportedProvider,
  params: Record<string, string | undefined>,
) => {
  const url = new URL(idp.endpoints(provider).authorization);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.toString();
};

/** Standard authorization parameters for `provider` (PKCE when `challenge` is given). */
export const standardParams = (
  provider: SupportedProvider,
  extra: { readonly challenge?: string; readonly state?: string; readonly nonce?: string } = {},
): Record<string, string | undefined> => ({
  response_type: "code",
  client_id: clients[provider]?.clientId,
  redirect_uri: redirectUri(provider),
  scope: defaultScopes[provider],
  state: extra.state ?? "state-123",
  ...(extra.challenge === undefined
    ? {}
    : { code_challenge: extra.challenge, code_challenge_method: "S256" }),
  ...(extra.nonce === undefined ? {} : { nonce: extra.nonce }),
});

/** Opens the sign-in page and answers it as `user`; returns the redirect back to the client. */
export const signIn = async (
  idp: Idp,
  provider: SupportedProvider,
  params: Record<string, string | undefined>,
  user = "ada",
) => {
  const page = await get(authorizationUrl(idp, provider, params));
  if (page.status !== 200) throw new Error(`sign-in page: ${page.status} ${await page.text()}`);
  const html = await page.text();
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  // The page escapes `/` in attribute values (`&#x2F;`), as `escapeHtml` does.
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll("&#x2F;", "/");
  if (request === undefined || action === undefined) throw new Error("no form on the page");
  const answer = await postForm(new URL(action, idp.url).toString(), { request, user });
  const location = new URL(answer.headers.get("location") ?? "");
  return { answer, location, code: location.searchParams.get("code") ?? "" };
};

/** A full sign-in with PKCE where the dialect takes it: code and verifier. */
export const codeFor = async (idp: Idp, provider: SupportedProvider, nonce?: string) => {
  const { verifier, challenge } = pkce();
  const usesPkce = provider === "google" || provider === "microsoft" || provider === "twitter";
  const { code } = await signIn(
    idp,
    provider,
    standardParams(provider, {
      ...(usesPkce ? { challenge } : {}),
      ...(nonce === undefined ? {} : { nonce }),
    }),
  );
  return { code, verifier: usesPkce ? verifier : undefined };
};

/** Verifies an RS256 JWT against a JWKS; returns its claims. */
export const verifyJwt = (jwt: string, jwks: { keys: Array<Record<string, unknown>> }) => {
  const [header, payload, signature] = jwt.split(".");
  const { kid, alg } = JSON.parse(Buffer.from(header ?? "", "base64url").toString());
  const jwk = jwks.keys.find((key) => key.kid === kid);
  if (alg !== "RS256" || jwk === undefined) throw new Error("unknown key");
  const key = createPublicKey({ key: jwk as never, format: "jwk" });
  const ok = verify(
    "sha256",
    Buffer.from(`${header}.${payload}`),
    key,
    Buffer.from(signature ?? "", "base64url"),
  );
  if (!ok) throw new Error("bad signature");
  return JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as Record<string, unknown>;
};
