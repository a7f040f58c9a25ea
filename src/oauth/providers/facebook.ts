/**
 * `facebook`: arctic's `Facebook` (no PKCE, no refresh); the profile comes from the Graph API
 * `/me?fields=id,name,email,picture`.
 *
 * @since 0.1.0
 */
import { createHmac } from "node:crypto";
import type * as HttpClient from "@effect/platform/HttpClient";
import { Facebook } from "arctic";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import { type FacebookConfig, toRedacted, validateClient } from "../OAuthConfig.js";
import {
  type OAuthConfigError,
  OAuthProvider,
  type ProviderSettings,
  resolveSettings,
} from "../OAuthProvider.js";
import { getProfile, profileOptions, toUser } from "./profileRequest.js";
import { tokenRequest } from "./tokenRequest.js";

/** The Graph API profile endpoint with the fields Strata maps. @since 0.1.0 */
export const profileEndpoint = "https://graph.facebook.com/me?fields=id,name,email,picture";

const Me = Schema.Struct({
  id: Schema.String,
  name: Schema.optional(Schema.NullOr(Schema.String)),
  email: Schema.optional(Schema.NullOr(Schema.String)),
  picture: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        data: Schema.optional(
          Schema.NullOr(Schema.Struct({ url: Schema.optional(Schema.NullOr(Schema.String)) })),
        ),
      }),
    ),
  ),
});

/**
 * The live `facebook` provider. Profile requests carry `appsecret_proof` (an HMAC of the token
 * with the app secret), so apps that require it work too. Facebook only returns confirmed
 * email addresses.
 *
 * @since 0.1.0
 * @category providers
 */
export const make = (
  config: FacebookConfig,
  settings?: ProviderSettings,
): Effect.Effect<typeof OAuthProvider.Service, OAuthConfigError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    yield* validateClient("facebook", config);
    const resolved = resolveSettings("facebook", settings);
    const profile = yield* profileOptions("facebook", resolved);
    const { timeout } = resolved;
    const secret = toRedacted(config.clientSecret);
    const arctic = new Facebook(config.clientId, Redacted.value(secret), config.redirectUri);
    const proof = (accessToken: Redacted.Redacted<string>) =>
      createHmac("sha256", Redacted.value(secret))
        .update(Redacted.value(accessToken))
        .digest("hex");

    return OAuthProvider.of({
      name: "facebook",
      pkce: false,
      oidc: false,
      redirectUri: config.redirectUri,
      defaultScopes: resolved.scopes,
      acceptsIssuer: () => false,
      authorizationUrl: (request) =>
        Effect.sync(() => arctic.createAuthorizationURL(request.state, [...request.scopes])),
      exchangeCode: (exchange) =>
        tokenRequest("facebook", "token", timeout, () =>
          arctic.validateAuthorizationCode(exchange.code),
        ).pipe(Effect.withSpan("Facebook.exchangeCode")),
      fetchProfile: (accessToken) =>
        Effect.map(
          getProfile(
            profile,
            `${profileEndpoint}&appsecret_proof=${proof(accessToken)}`,
            accessToken,
            Me,
          ),
          (me) =>
            toUser({
              id: me.id,
              email: me.email,
              name: me.name,
              picture: me.picture?.data?.url,
            }),
        ).pipe(Effect.withSpan("Facebook.fetchProfile")),
    });
  });

/**
 * The live `facebook` provider as a Layer (its profile requests use the `HttpClient` in
 * context).
 *
 * @since 0.1.0
 * @category providers
 */
export const layer = (
  config: FacebookConfig,
  settings?: ProviderSettings,
): Layer.Layer<OAuthProvider, OAuthConfigError, HttpClient.HttpClient> =>
  Layer.effect(OAuthProvider, make(config, settings));
