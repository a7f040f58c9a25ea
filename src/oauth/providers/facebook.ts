/**
 * `facebook`: arctic's `Facebook` (no PKCE, no refresh; client_secret_post); the profile comes
 * from the Graph API `/me?fields=id,name,email,picture`. At overridden endpoints, arctic's
 * `OAuth2Client` builds the authorization URL and arctic's token request sends the client
 * secret in the body, as `Facebook` does (`OAuth2Client` only knows client_secret_basic).
 *
 * @since 0.1.0
 */
import { createHmac } from "node:crypto";
import type * as HttpClient from "@effect/platform/HttpClient";
import {
  Facebook,
  OAuth2Client,
  OAuth2RequestError,
  type OAuth2Tokens,
  UnexpectedErrorResponseBodyError,
} from "arctic";
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
import { type ProviderEndpoints, resolveEndpoints } from "../ProviderEndpoints.js";
import { getProfile, profileOptions, toUser } from "./profileRequest.js";
import { sendTokenForm } from "./tokenForm.js";
import { tokenRequest } from "./tokenRequest.js";

/** Facebook's endpoints (arctic's constants; the Graph API root). @since 0.1.0 */
export const defaultEndpoints = {
  authorization: "https://www.facebook.com/v16.0/dialog/oauth",
  token: "https://graph.facebook.com/v16.0/oauth/access_token",
  api: "https://graph.facebook.com",
} as const satisfies ProviderEndpoints;

/** The profile path under the Graph API, with the fields Strata maps. @since 0.1.0 */
export const profilePath = "/me?fields=id,name,email,picture";

/** The Graph API profile endpoint with the fields Strata maps. @since 0.1.0 */
export const profileEndpoint = `${defaultEndpoints.api}${profilePath}`;

/**
 * Facebook refuses a token request with a Graph error (`{ error: { message, type, code } }`),
 * not an OAuth `error` string, which arctic reports as an unexpected body: read it as the
 * refusal it is (its `type`, `OAuthException`, is no standard code: `other`).
 */
const graphRefusal = (error: unknown): Promise<never> => {
  if (error instanceof UnexpectedErrorResponseBodyError) {
    const graph = (error.data as { readonly error?: unknown }).error;
    if (typeof graph === "object" && graph !== null) {
      const type = (graph as { readonly type?: unknown }).type;
      return Promise.reject(
        new OAuth2RequestError(typeof type === "string" ? type : "other", null, null, null),
      );
    }
  }
  return Promise.reject(error);
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
    const endpoints = yield* resolveEndpoints("facebook", config.endpoints, defaultEndpoints);
    const arctic = new Facebook(config.clientId, Redacted.value(secret), config.redirectUri);
    const client = new OAuth2Client(config.clientId, Redacted.value(secret), config.redirectUri);
    const exchange = (code: string): Promise<OAuth2Tokens> =>
      (endpoints.overridden
        ? sendTokenForm(
            endpoints.token,
            new URLSearchParams({
              grant_type: "authorization_code",
              code,
              redirect_uri: config.redirectUri,
              client_id: config.clientId,
              client_secret: Redacted.value(secret),
            }),
          )
        : arctic.validateAuthorizationCode(code)
      ).catch(graphRefusal);
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
        Effect.sync(() =>
          endpoints.overridden
            ? client.createAuthorizationURL(endpoints.authorization, request.state, [
                ...request.scopes,
              ])
            : arctic.createAuthorizationURL(request.state, [...request.scopes]),
        ),
      exchangeCode: ({ code }) =>
        tokenRequest("facebook", "token", timeout, () => exchange(code)).pipe(
          Effect.withSpan("Facebook.exchangeCode"),
        ),
      fetchProfile: (accessToken) =>
        Effect.map(
          getProfile(
            profile,
            `${profileUrl}&appsecret_proof=${proof(accessToken)}`,
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
