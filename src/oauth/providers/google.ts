/**
 * `google`: arctic's `Google` (PKCE S256, OpenID Connect; at overridden endpoints arctic's
 * `OAuth2Client`, which builds the same requests); token requests as `OAuth2Client` makes
 * them, sent through the `HttpClient`; the profile comes from the OpenID userinfo endpoint.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient";
import { Google } from "arctic";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import * as GoogleDialect from "../dialects/google.js";
import { type GoogleConfig, toRedacted, validateClient } from "../OAuthConfig.js";
import {
  type OAuthConfigError,
  OAuthProvider,
  type ProviderSettings,
  resolveSettings,
} from "../OAuthProvider.js";
import { type ProviderEndpoints, resolveEndpoints } from "../ProviderEndpoints.js";
import { claimIsTrue, getProfile, toUser } from "./profileRequest.js";
import { clientFlow, pkceClassUrl } from "./providerFlow.js";
import { providerHttp } from "./providerHttp.js";
import { revocation, tokenRequest } from "./tokenRequest.js";

/** Google's issuer identifier (`iss` of its authorization responses and ID tokens). @since 0.1.0 */
export const issuer = "https://accounts.google.com";

/** Google's endpoints (arctic's constants; the profile API of the userinfo endpoint). @since 0.1.0 */
export const defaultEndpoints = {
  authorization: `https://accounts.google.com${GoogleDialect.authorizationPath}`,
  token: `https://oauth2.googleapis.com${GoogleDialect.tokenPath}`,
  revocation: `https://oauth2.googleapis.com${GoogleDialect.revocationPath}`,
  api: "https://openidconnect.googleapis.com",
} as const satisfies Required<ProviderEndpoints>;

/** The userinfo path under the profile API. @since 0.1.0 */
export const userinfoPath = GoogleDialect.userinfoPath;

/** Google's OpenID Connect userinfo endpoint. @since 0.1.0 */
export const userinfoEndpoint = `${defaultEndpoints.api}${userinfoPath}`;

const Userinfo = Schema.Struct({
  sub: Schema.String,
  email: Schema.optional(Schema.NullOr(Schema.String)),
  email_verified: Schema.optional(Schema.NullOr(Schema.Union(Schema.Boolean, Schema.String))),
  name: Schema.optional(Schema.NullOr(Schema.String)),
  picture: Schema.optional(Schema.NullOr(Schema.String)),
});

/**
 * The live `google` provider. The email is kept only when Google marks it verified
 * (`email_verified`), so `emailVerified` is then `true`; `offline` adds
 * `access_type=offline` (a refresh token on consent). With an overridden authorization
 * endpoint, the accepted `iss` is that endpoint's origin.
 *
 * @since 0.1.0
 * @category providers
 */
export const make = (
  config: GoogleConfig,
  settings?: ProviderSettings,
): Effect.Effect<typeof OAuthProvider.Service, OAuthConfigError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    yield* validateClient("google", config);
    const resolved = resolveSettings("google", settings);
    const http = yield* providerHttp("google", resolved);
    const endpoints = yield* resolveEndpoints("google", config.endpoints, defaultEndpoints);
    const secret = Redacted.value(toRedacted(config.clientSecret));
    const client = { clientId: config.clientId, secret, redirectUri: config.redirectUri };
    const arctic = new Google(config.clientId, secret, config.redirectUri);
    const flow = clientFlow(http, client, endpoints, true, pkceClassUrl(arctic));
    const expectedIssuer =
      endpoints.authorization === defaultEndpoints.authorization
        ? issuer
        : new URL(endpoints.authorization).origin;
    const userinfo = `${endpoints.api}${userinfoPath}`;

    return OAuthProvider.of({
      name: "google",
      pkce: true,
      oidc: true,
      redirectUri: config.redirectUri,
      defaultScopes: resolved.scopes,
      acceptsIssuer: (iss) => iss === expectedIssuer,
      authorizationUrl: (request) =>
        Effect.sync(() => {
          const url = flow.authorizationUrl(request.state, request.codeVerifier, [
            ...request.scopes,
          ]);
          if (request.nonce !== undefined) url.searchParams.set("nonce", request.nonce);
          if (request.offline === true)
            url.searchParams.set(
              GoogleDialect.offlineParameter.name,
              GoogleDialect.offlineParameter.value,
            );
          return url;
        }),
      exchangeCode: (exchange) =>
        tokenRequest(
          "google",
          flow.validateAuthorizationCode(exchange.code, exchange.codeVerifier),
          exchange.nonce,
        ).pipe(Effect.withSpan("Google.exchangeCode")),
      refreshToken: (refreshToken) =>
        tokenRequest("google", flow.refreshAccessToken(Redacted.value(refreshToken), [])).pipe(
          Effect.withSpan("Google.refreshToken"),
        ),
      ...revocation(flow, "Google.revokeToken"),
      fetchProfile: (accessToken) =>
        Effect.map(getProfile(http, userinfo, accessToken, Userinfo), (info) => {
          const verified = claimIsTrue(info.email_verified);
          return toUser({
            id: info.sub,
            email: verified ? info.email : undefined,
            emailVerified: verified,
            name: info.name,
            picture: info.picture,
          });
        }).pipe(Effect.withSpan("Google.fetchProfile")),
    });
  });

/**
 * The live `google` provider as a Layer (its profile requests use the `HttpClient` in context).
 *
 * @since 0.1.0
 * @category providers
 */
export const layer = (
  config: GoogleConfig,
  settings?: ProviderSettings,
): Layer.Layer<OAuthProvider, OAuthConfigError, HttpClient.HttpClient> =>
  Layer.effect(OAuthProvider, make(config, settings));
