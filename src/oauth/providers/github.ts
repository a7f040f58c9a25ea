/**
 * `github`: arctic's `GitHub` (no PKCE; at overridden endpoints, GitHub Enterprise Server,
 * arctic's `OAuth2Client`); token requests are the client_secret_basic requests both build,
 * sent through the `HttpClient`, with GitHub's 200-with-`error` answers read as refusals, as
 * arctic's `GitHub` reads them. The profile is `/user` plus the primary verified address of
 * `/user/emails`.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient";
import { GitHub } from "arctic";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import * as GitHubDialect from "../dialects/github.js";
import { type GitHubConfig, toRedacted, validateClient } from "../OAuthConfig.js";
import {
  type OAuthConfigError,
  OAuthProvider,
  type ProviderSettings,
  resolveSettings,
} from "../OAuthProvider.js";
import { type ProviderEndpoints, resolveEndpoints } from "../ProviderEndpoints.js";
import { decodeProfile, getProfile, statusFailure, toUser } from "./profileRequest.js";
import { clientFlow, plainClassUrl } from "./providerFlow.js";
import { getJson, providerHttp } from "./providerHttp.js";
import { tokenRequest } from "./tokenRequest.js";

/** GitHub's endpoints (arctic's constants; the REST API root). @since 0.1.0 */
export const defaultEndpoints = {
  authorization: `https://github.com${GitHubDialect.authorizationPath}`,
  token: `https://github.com${GitHubDialect.tokenPath}`,
  api: "https://api.github.com",
} as const satisfies ProviderEndpoints;

/** GitHub's REST API root. @since 0.1.0 */
export const apiBase = defaultEndpoints.api;

const apiHeaders = {
  accept: "application/vnd.github+json",
  "x-github-api-version": GitHubDialect.API_VERSION,
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
 * granted): an unverified primary gives no email, never another address of the list, and
 * `emailVerified` is the chosen entry's `verified` flag. GitHub OAuth Apps send no expiry,
 * so `expiresAt` is then absent.
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
    const http = yield* providerHttp("github", resolved);
    const endpoints = yield* resolveEndpoints("github", config.endpoints, defaultEndpoints);
    const secret = Redacted.value(toRedacted(config.clientSecret));
    const arctic = new GitHub(config.clientId, secret, config.redirectUri);
    const flow = clientFlow(
      http,
      { clientId: config.clientId, secret, redirectUri: config.redirectUri, refusesWith200: true },
      endpoints,
      false,
      plainClassUrl(arctic),
    );
    const api = endpoints.api;

    /** The primary verified entry of `/user/emails`, if any. */
    const primaryVerifiedEmail = (accessToken: Redacted.Redacted<string>) =>
      Effect.flatMap(
        getJson(http, `${api}${GitHubDialect.emailsPath}`, accessToken, apiHeaders),
        (answer) => {
          // 403/404: the token lacks `user:email`; the login still works, without an email.
          if (answer.status === 403 || answer.status === 404) return Effect.succeed(undefined);
          if (answer.status < 200 || answer.status >= 300) {
            return Effect.fail(statusFailure("github", answer.status));
          }
          return Effect.map(decodeProfile("github", Emails, answer.body), (emails) =>
            emails.find((e) => e.primary === true && e.verified === true),
          );
        },
      );

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
        tokenRequest("github", flow.validateAuthorizationCode(exchange.code, undefined)).pipe(
          Effect.withSpan("GitHub.exchangeCode"),
        ),
      refreshToken: (refreshToken) =>
        tokenRequest("github", flow.refreshAccessToken(Redacted.value(refreshToken), [])).pipe(
          Effect.withSpan("GitHub.refreshToken"),
        ),
      fetchProfile: (accessToken) =>
        Effect.map(
          Effect.all(
            [
              getProfile(http, `${api}${GitHubDialect.userPath}`, accessToken, User, apiHeaders),
              primaryVerifiedEmail(accessToken),
            ],
            { concurrency: 2 },
          ),
          ([user, email]) =>
            toUser({
              id: String(user.id),
              email: email?.email,
              emailVerified: email?.verified === true,
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
