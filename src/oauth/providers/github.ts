/**
 * `github`: arctic's `GitHub` (no PKCE); the profile is `/user` plus the primary verified
 * address of `/user/emails`. At overridden endpoints (GitHub Enterprise Server), arctic's
 * `OAuth2Client` (the same client_secret_basic requests) with GitHub's 200-with-`error` token
 * answers still read as refusals.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient";
import { GitHub, OAuth2Client, OAuth2RequestError, type OAuth2Tokens } from "arctic";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import { type GitHubConfig, toRedacted, validateClient } from "../OAuthConfig.js";
import {
  type OAuthConfigError,
  OAuthProvider,
  type ProviderSettings,
  resolveSettings,
} from "../OAuthProvider.js";
import {
  type ProviderEndpoints,
  type ResolvedEndpoints,
  resolveEndpoints,
} from "../ProviderEndpoints.js";
import { type ArcticFlow, clientFlow } from "./arcticFlow.js";
import {
  decodeProfile,
  getJson,
  getProfile,
  profileOptions,
  statusFailure,
  toUser,
} from "./profileRequest.js";
import { tokenRequest } from "./tokenRequest.js";

/** GitHub's endpoints (arctic's constants; the REST API root). @since 0.1.0 */
export const defaultEndpoints = {
  authorization: "https://github.com/login/oauth/authorize",
  token: "https://github.com/login/oauth/access_token",
  api: "https://api.github.com",
} as const satisfies ProviderEndpoints;

/** GitHub's REST API root. @since 0.1.0 */
export const apiBase = defaultEndpoints.api;

/**
 * GitHub answers a refused code with 200 and an `error` body. arctic's `GitHub` reads that
 * as a refusal; its generic `OAuth2Client` would return it as tokens.
 */
const rejectErrorBody = (tokens: OAuth2Tokens): Promise<OAuth2Tokens> => {
  const error = (tokens.data as { readonly error?: unknown }).error;
  return typeof error === "string"
    ? Promise.reject(new OAuth2RequestError(error, null, null, null))
    : Promise.resolve(tokens);
};

/** The flow of arctic's `GitHub` (github.com). */
const githubFlow = (arctic: GitHub): ArcticFlow => ({
  authorizationUrl: (state, _codeVerifier, scopes) => arctic.createAuthorizationURL(state, scopes),
  validateAuthorizationCode: (code) => arctic.validateAuthorizationCode(code),
  refreshAccessToken: (refreshToken) => arctic.refreshAccessToken(refreshToken),
});

/** `OAuth2Client` at other endpoints, GitHub's answers read as arctic's `GitHub` reads them. */
const enterpriseFlow = (client: OAuth2Client, endpoints: ResolvedEndpoints): ArcticFlow => {
  const flow = clientFlow(client, endpoints, false);
  return {
    ...flow,
    validateAuthorizationCode: (code, codeVerifier) =>
      flow.validateAuthorizationCode(code, codeVerifier).then(rejectErrorBody),
    refreshAccessToken: (refreshToken, scopes) =>
      flow.refreshAccessToken(refreshToken, scopes).then(rejectErrorBody),
  };
};

const apiHeaders = {
  accept: "application/vnd.github+json",
  "x-github-api-version": "2022-11-28",
};

const User = Schema.Struct({
  id: Schema.Union(Schema.Number, Schema.String),
  login: Schema.String,
  name: Schema.optional(Schema.NullOr(Schema.String)),
  avatar_url: Schema.optional(Schema.NullOr(Schema.String)),
});

const Emails = Schema.Array(
  Schema.Struct({
    email: Schema.String,
    primary: Schema.optional(Schema.NullOr(Schema.Boolean)),
    verified: Schema.optional(Schema.NullOr(Schema.Boolean)),
  }),
);

/**
 * The live `github` provider. `name` falls back to the login; `email` is the primary
 * address only when GitHub marks it verified (absent when the `user:email` scope was not
 * granted). GitHub OAuth Apps send no expiry, so `expiresAt` is then absent.
 *
 * @since 0.1.0
 * @category providers
 */
export const make = (
  config: GitHubConfig,
  settings?: ProviderSettings,
): Effect.Effect<typeof OAuthProvider.Service, OAuthConfigError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    yield* validateClient("github", config);
    const resolved = resolveSettings("github", settings);
    const profile = yield* profileOptions("github", resolved);
    const { timeout } = resolved;
    const endpoints = yield* resolveEndpoints("github", config.endpoints, defaultEndpoints);
    const secret = Redacted.value(toRedacted(config.clientSecret));
    const flow: ArcticFlow = endpoints.overridden
      ? enterpriseFlow(new OAuth2Client(config.clientId, secret, config.redirectUri), endpoints)
      : githubFlow(new GitHub(config.clientId, secret, config.redirectUri));
    const api = endpoints.api;

    const primaryVerifiedEmail = (accessToken: Redacted.Redacted<string>) =>
      Effect.flatMap(getJson(profile, `${api}/user/emails`, accessToken, apiHeaders), (answer) => {
        // 403/404: the token lacks `user:email`; the login still works, without an email.
        if (answer.status === 403 || answer.status === 404) return Effect.succeed(undefined);
        if (answer.status < 200 || answer.status >= 300) {
          return Effect.fail(statusFailure("github", answer.status));
        }
        return Effect.map(
          decodeProfile("github", Emails, answer.body),
          (emails) => emails.find((e) => e.primary === true && e.verified === true)?.email,
        );
      });

    return OAuthProvider.of({
      name: "github",
      pkce: false,
      oidc: false,
      redirectUri: config.redirectUri,
      defaultScopes: resolved.scopes,
      acceptsIssuer: () => false,
      authorizationUrl: (request) =>
        Effect.sync(() => flow.authorizationUrl(request.state, undefined, [...request.scopes])),
      exchangeCode: (exchange) =>
        tokenRequest("github", "token", timeout, () =>
          flow.validateAuthorizationCode(exchange.code, undefined),
        ).pipe(Effect.withSpan("GitHub.exchangeCode")),
      refreshToken: (refreshToken) =>
        tokenRequest("github", "refresh", timeout, () =>
          flow.refreshAccessToken(Redacted.value(refreshToken), []),
        ).pipe(Effect.withSpan("GitHub.refreshToken")),
      fetchProfile: (accessToken) =>
        Effect.map(
          Effect.all(
            [
              getProfile(profile, `${api}/user`, accessToken, User, apiHeaders),
              primaryVerifiedEmail(accessToken),
            ],
            { concurrency: 2 },
          ),
          ([user, email]) =>
            toUser({
              id: String(user.id),
              email,
              name: user.name ?? user.login,
              picture: user.avatar_url,
            }),
        ).pipe(Effect.withSpan("GitHub.fetchProfile")),
    });
  });

/**
 * The live `github` provider as a Layer (its profile requests use the `HttpClient` in
 * context).
 *
 * @since 0.1.0
 * @category providers
 */
export const layer = (
  config: GitHubConfig,
  settings?: ProviderSettings,
): Layer.Layer<OAuthProvider, OAuthConfigError, HttpClient.HttpClient> =>
  Layer.effect(OAuthProvider, make(config, settings));
