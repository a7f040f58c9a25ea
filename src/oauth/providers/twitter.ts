/**
 * `twitter`: arctic's `Twitter` (PKCE S256; a public client without a secret; at overridden
 * endpoints arctic's `OAuth2Client`, which builds the same requests; token requests sent through
 * the `HttpClient`); the profile comes from
 * `/2/users/me?user.fields=profile_image_url` and has no email.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient";
import { Twitter } from "arctic";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import * as TwitterDialect from "../dialects/twitter.js";
import { type TwitterConfig, toRedacted, validateClient } from "../OAuthConfig.js";
import {
  type OAuthConfigError,
  OAuthProvider,
  type ProviderSettings,
  resolveSettings,
} from "../OAuthProvider.js";
import { type ProviderEndpoints, resolveEndpoints } from "../ProviderEndpoints.js";
import { getProfile, toUser } from "./profileRequest.js";
import { clientFlow, pkceClassUrl } from "./providerFlow.js";
import { providerHttp } from "./providerHttp.js";
import { revocation, tokenRequest } from "./tokenRequest.js";

/** Twitter's endpoints (arctic's constants; the profile API). @since 0.1.0 */
export const defaultEndpoints = {
  authorization: `https://twitter.com${TwitterDialect.authorizationPath}`,
  token: `https://api.twitter.com${TwitterDialect.tokenPath}`,
  revocation: `https://api.twitter.com${TwitterDialect.revocationPath}`,
  api: "https://api.twitter.com",
} as const satisfies Required<ProviderEndpoints>;

/** The profile path under the profile API. @since 0.1.0 */
export const profilePath =
  `${TwitterDialect.mePath}?user.fields=${TwitterDialect.PICTURE_FIELD}` as const;

/** The profile endpoint. @since 0.1.0 */
export const profileEndpoint = `${defaultEndpoints.api}${profilePath}`;

/** The scope that makes twitter issue refresh tokens. @since 0.1.0 */
export const OFFLINE_SCOPE = TwitterDialect.OFFLINE_SCOPE;

const Me = Schema.Struct({
  data: Schema.Struct({
    id: Schema.String,
    name: Schema.optional(Schema.NullOr(Schema.String)),
    username: Schema.optional(Schema.NullOr(Schema.String)),
    profile_image_url: Schema.optional(Schema.NullOr(Schema.String)),
  }),
});

/**
 * The live `twitter` provider. `offline` adds the `offline.access` scope (refresh tokens).
 *
 * @since 0.1.0
 * @category providers
 */
export const make = (
  config: TwitterConfig,
  settings?: ProviderSettings,
): Effect.Effect<typeof OAuthProvider.Service, OAuthConfigError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    yield* validateClient("twitter", config);
    const resolved = resolveSettings("twitter", settings);
    const http = yield* providerHttp("twitter", resolved);
    const secret =
      config.clientSecret === undefined || config.clientSecret === null
        ? null
        : Redacted.value(toRedacted(config.clientSecret));
    const endpoints = yield* resolveEndpoints("twitter", config.endpoints, defaultEndpoints);
    const client = { clientId: config.clientId, secret, redirectUri: config.redirectUri };
    const arctic = new Twitter(config.clientId, secret, config.redirectUri);
    const flow = clientFlow(http, client, endpoints, true, pkceClassUrl(arctic));
    const profileUrl = `${endpoints.api}${profilePath}`;

    return OAuthProvider.of({
      name: "twitter",
      pkce: true,
      oidc: false,
      redirectUri: config.redirectUri,
      defaultScopes: resolved.scopes,
      acceptsIssuer: () => false,
      authorizationUrl: (request) =>
        Effect.sync(() => {
          const scopes = [...request.scopes];
          if (request.offline === true && !scopes.includes(OFFLINE_SCOPE)) {
            scopes.push(OFFLINE_SCOPE);
          }
          return flow.authorizationUrl(request.state, request.codeVerifier, scopes);
        }),
      exchangeCode: (exchange) =>
        tokenRequest(
          "twitter",
          flow.validateAuthorizationCode(exchange.code, exchange.codeVerifier),
        ).pipe(Effect.withSpan("Twitter.exchangeCode")),
      refreshToken: (refreshToken) =>
        tokenRequest("twitter", flow.refreshAccessToken(Redacted.value(refreshToken), [])).pipe(
          Effect.withSpan("Twitter.refreshToken"),
        ),
      ...revocation(flow, "Twitter.revokeToken"),
      fetchProfile: (accessToken) =>
        Effect.map(getProfile(http, profileUrl, accessToken, Me), ({ data }) =>
          toUser({
            id: data.id,
            name: data.name ?? data.username,
            picture: data.profile_image_url,
          }),
        ).pipe(Effect.withSpan("Twitter.fetchProfile")),
    });
  });

/**
 * The live `twitter` provider as a Layer (its profile requests use the `HttpClient` in
 * context).
 *
 * @since 0.1.0
 * @category providers
 */
export const layer = (
  config: TwitterConfig,
  settings?: ProviderSettings,
): Layer.Layer<OAuthProvider, OAuthConfigError, HttpClient.HttpClient> =>
  Layer.effect(OAuthProvider, make(config, settings));
