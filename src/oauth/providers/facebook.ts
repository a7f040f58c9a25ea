/**
 * `facebook`: arctic's `Facebook` (no PKCE, no refresh; at overridden endpoints, arctic's
 * `OAuth2Client` builds the authorization URL); the token request sends the client secret in
 * the body (client_secret_post) as `Facebook` does, through the `HttpClient`. The profile
 * comes from the Graph API `/me?fields=id,name,email,picture`.
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
import * as FacebookDialect from "../dialects/facebook.js";
import { type FacebookConfig, toRedacted, validateClient } from "../OAuthConfig.js";
import {
  type OAuthConfigError,
  OAuthProvider,
  type ProviderSettings,
  resolveSettings,
} from "../OAuthProvider.js";
import { type ProviderEndpoints, resolveEndpoints } from "../ProviderEndpoints.js";
import { getProfile, toUser } from "./profileRequest.js";
import { clientFlow, plainClassUrl } from "./providerFlow.js";
import { providerHttp } from "./providerHttp.js";
import { tokenRequest } from "./tokenRequest.js";

/** Facebook's endpoints (arctic's constants; the Graph API root). @since 0.1.0 */
export const defaultEndpoints = {
  authorization: `https://www.facebook.com${FacebookDialect.authorizationPath}`,
  token: `https://graph.facebook.com${FacebookDialect.tokenPath}`,
  api: "https://graph.facebook.com",
} as const satisfies ProviderEndpoints;

/** The profile path under the Graph API, with the fields Strata maps. @since 0.1.0 */
export const profilePath =
  `${FacebookDialect.mePath}?fields=${FacebookDialect.PROFILE_FIELDS}` as const;

/** The Graph API profile endpoint with the fields Strata maps. @since 0.1.0 */
export const profileEndpoint = `${defaultEndpoints.api}${profilePath}`;

/**
 * Facebook refuses a token request with a Graph error (`{ error: { message, type, code } }`)
 * as well as with an OAuth `error` string: both are refusals (the Graph `type`,
 * `OAuthException`, is no standard code: `other`).
 */
const graphRefusal = (body: Readonly<Record<string, unknown>>): string | undefined => {
  const { error } = body;
  if (typeof error === "string") return error;
  if (typeof error !== "object" || error === null) return undefined;
  const type = (error as { readonly type?: unknown }).type;
  return typeof type === "string" ? type : "other";
};

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
 * with the app secret), so apps that require it work too. The Graph API returns no email
 * that is not confirmed, so a returned one has `emailVerified: true` (the User reference:
 * "not returned if no valid email address is available"; Meta, facebookarchive/php-graph-sdk
 * #932: not returned "when the user doesn't have a confirmed email").
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
    const http = yield* providerHttp("facebook", resolved);
    const secret = toRedacted(config.clientSecret);
    const endpoints = yield* resolveEndpoints("facebook", config.endpoints, defaultEndpoints);
    const arctic = new Facebook(config.clientId, Redacted.value(secret), config.redirectUri);
    const flow = clientFlow(
      http,
      {
        clientId: config.clientId,
        secret: Redacted.value(secret),
        redirectUri: config.redirectUri,
        authentication: "client_secret_post",
        refusal: graphRefusal,
      },
      endpoints,
      false,
      plainClassUrl(arctic),
    );
    const profileUrl = `${endpoints.api}${profilePath}`;
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
        Effect.sync(() => flow.authorizationUrl(request.state, undefined, [...request.scopes])),
      exchangeCode: ({ code }) =>
        tokenRequest("facebook", flow.validateAuthorizationCode(code, undefined)).pipe(
          Effect.withSpan("Facebook.exchangeCode"),
        ),
      fetchProfile: (accessToken) =>
        Effect.map(
          getProfile(
            http,
            `${profileUrl}&${FacebookDialect.APPSECRET_PROOF}=${proof(accessToken)}`,
            accessToken,
            Me,
          ),
          (me) =>
            toUser({
              id: me.id,
              email: me.email,
              emailVerified: true,
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
