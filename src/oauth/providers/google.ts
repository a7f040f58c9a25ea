/**
 * `google`: arctic's `Google` (PKCE S256, OpenID Connect); the profile comes from the OpenID
 * userinfo endpoint.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient";
import { Google } from "arctic";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import { type GoogleConfig, toRedacted, validateClient } from "../OAuthConfig.js";
import {
  type OAuthConfigError,
  OAuthProvider,
  type ProviderSettings,
  resolveSettings,
} from "../OAuthProvider.js";
import { getProfile, profileOptions, toUser } from "./profileRequest.js";
import { arcticCall, tokenRequest } from "./tokenRequest.js";

/** Google's issuer identifier (`iss` of its authorization responses and ID tokens). @since 0.1.0 */
export const issuer = "https://accounts.google.com";

/** Google's OpenID Connect userinfo endpoint. @since 0.1.0 */
export const userinfoEndpoint = "https://openidconnect.googleapis.com/v1/userinfo";

const Userinfo = Schema.Struct({
  sub: Schema.String,
  email: Schema.optional(Schema.NullOr(Schema.String)),
  email_verified: Schema.optional(Schema.NullOr(Schema.Union(Schema.Boolean, Schema.String))),
  name: Schema.optional(Schema.NullOr(Schema.String)),
  picture: Schema.optional(Schema.NullOr(Schema.String)),
});

/**
 * The live `google` provider. The email is kept only when Google marks it verified;
 * `offline` adds `access_type=offline` (a refresh token on consent).
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
    const profile = yield* profileOptions("google", resolved);
    const { timeout } = resolved;
    const arctic = new Google(
      config.clientId,
      Redacted.value(toRedacted(config.clientSecret)),
      config.redirectUri,
    );

    return OAuthProvider.of({
      name: "google",
      pkce: true,
      oidc: true,
      redirectUri: config.redirectUri,
      defaultScopes: resolved.scopes,
      acceptsIssuer: (iss) => iss === issuer,
      authorizationUrl: (request) =>
        Effect.sync(() => {
          const url = arctic.createAuthorizationURL(request.state, request.codeVerifier ?? "", [
            ...request.scopes,
          ]);
          if (request.nonce !== undefined) url.searchParams.set("nonce", request.nonce);
          if (request.offline === true) url.searchParams.set("access_type", "offline");
          return url;
        }),
      exchangeCode: (exchange) =>
        tokenRequest(
          "google",
          "token",
          timeout,
          () => arctic.validateAuthorizationCode(exchange.code, exchange.codeVerifier ?? ""),
          exchange.nonce,
        ).pipe(Effect.withSpan("Google.exchangeCode")),
      refreshToken: (refreshToken) =>
        tokenRequest("google", "refresh", timeout, () =>
          arctic.refreshAccessToken(Redacted.value(refreshToken)),
        ).pipe(Effect.withSpan("Google.refreshToken")),
      revokeToken: (token) =>
        arcticCall("google", "revoke", timeout, () =>
          arctic.revokeToken(Redacted.value(token)),
        ).pipe(Effect.withSpan("Google.revokeToken")),
      fetchProfile: (accessToken) =>
        Effect.map(getProfile(profile, userinfoEndpoint, accessToken, Userinfo), (info) =>
          toUser({
            id: info.sub,
            email:
              info.email_verified === true || info.email_verified === "true"
                ? info.email
                : undefined,
            name: info.name,
            picture: info.picture,
          }),
        ).pipe(Effect.withSpan("Google.fetchProfile")),
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
