/**
 * `microsoft`: arctic's `MicrosoftEntraId` (PKCE S256, OpenID Connect; tenant `common` by
 * default; a public client without a secret); the profile comes from Microsoft's OpenID
 * userinfo endpoint.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient";
import { MicrosoftEntraId } from "arctic";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import { type MicrosoftConfig, toRedacted, validateClient } from "../OAuthConfig.js";
import {
  OAuthConfigError,
  OAuthProvider,
  type ProviderSettings,
  resolveSettings,
} from "../OAuthProvider.js";
import { getProfile, profileOptions, toUser } from "./profileRequest.js";
import { tokenRequest } from "./tokenRequest.js";

/** The tenant used when none is configured: any work, school or personal account. @since 0.1.0 */
export const DEFAULT_TENANT = "common";

/** Microsoft's OpenID Connect userinfo endpoint. @since 0.1.0 */
export const userinfoEndpoint = "https://graph.microsoft.com/oidc/userinfo";

const multiTenant: ReadonlySet<string> = new Set(["common", "organizations", "consumers"]);
const tenantIssuer =
  /^https:\/\/login\.microsoftonline\.com\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/v2\.0$/;

/**
 * `true` when `iss` names the tenant's authorization server: exactly
 * `https://login.microsoftonline.com/<tenant>/v2.0`, or for the multi-tenant aliases any
 * tenant id in that form.
 *
 * @since 0.1.0
 */
export const acceptsIssuer =
  (tenant: string) =>
  (iss: string): boolean =>
    multiTenant.has(tenant)
      ? tenantIssuer.test(iss)
      : iss === `https://login.microsoftonline.com/${tenant}/v2.0`;

const Userinfo = Schema.Struct({
  sub: Schema.String,
  email: Schema.optional(Schema.NullOr(Schema.String)),
  name: Schema.optional(Schema.NullOr(Schema.String)),
  picture: Schema.optional(Schema.NullOr(Schema.String)),
});

/**
 * The live `microsoft` provider. `offline` adds the `offline_access` scope (refresh token).
 * Entra does not mark the `email` claim verified: treat it as a contact address, not as
 * proof of ownership.
 *
 * @since 0.1.0
 * @category providers
 */
export const make = (
  config: MicrosoftConfig,
  settings?: ProviderSettings,
): Effect.Effect<typeof OAuthProvider.Service, OAuthConfigError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    yield* validateClient("microsoft", config);
    const tenant = config.tenant ?? DEFAULT_TENANT;
    if (!/^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/.test(tenant)) {
      return yield* new OAuthConfigError({ message: "microsoft: invalid tenant" });
    }
    const resolved = resolveSettings("microsoft", settings);
    const profile = yield* profileOptions("microsoft", resolved);
    const { timeout } = resolved;
    const secret =
      config.clientSecret === undefined || config.clientSecret === null
        ? null
        : Redacted.value(toRedacted(config.clientSecret));
    const arctic = new MicrosoftEntraId(tenant, config.clientId, secret, config.redirectUri);

    return OAuthProvider.of({
      name: "microsoft",
      pkce: true,
      oidc: true,
      redirectUri: config.redirectUri,
      defaultScopes: resolved.scopes,
      acceptsIssuer: acceptsIssuer(tenant),
      authorizationUrl: (request) =>
        Effect.sync(() => {
          const scopes = [...request.scopes];
          if (request.offline === true && !scopes.includes("offline_access")) {
            scopes.push("offline_access");
          }
          const url = arctic.createAuthorizationURL(
            request.state,
            request.codeVerifier ?? "",
            scopes,
          );
          if (request.nonce !== undefined) url.searchParams.set("nonce", request.nonce);
          return url;
        }),
      exchangeCode: (exchange) =>
        tokenRequest(
          "microsoft",
          "token",
          timeout,
          () => arctic.validateAuthorizationCode(exchange.code, exchange.codeVerifier ?? ""),
          exchange.nonce,
        ).pipe(Effect.withSpan("Microsoft.exchangeCode")),
      refreshToken: (refreshToken, scopes) =>
        tokenRequest("microsoft", "refresh", timeout, () =>
          arctic.refreshAccessToken(Redacted.value(refreshToken), [...(scopes ?? [])]),
        ).pipe(Effect.withSpan("Microsoft.refreshToken")),
      fetchProfile: (accessToken) =>
        Effect.map(getProfile(profile, userinfoEndpoint, accessToken, Userinfo), (info) =>
          toUser({ id: info.sub, email: info.email, name: info.name, picture: info.picture }),
        ).pipe(Effect.withSpan("Microsoft.fetchProfile")),
    });
  });

/**
 * The live `microsoft` provider as a Layer (its profile requests use the `HttpClient` in
 * context).
 *
 * @since 0.1.0
 * @category providers
 */
export const layer = (
  config: MicrosoftConfig,
  settings?: ProviderSettings,
): Layer.Layer<OAuthProvider, OAuthConfigError, HttpClient.HttpClient> =>
  Layer.effect(OAuthProvider, make(config, settings));
