/**
 * `microsoft`: arctic's `MicrosoftEntraId` (PKCE S256, OpenID Connect; tenant `common` by
 * default; a public client without a secret); the profile comes from Microsoft's OpenID
 * userinfo endpoint. On another login host or at overridden endpoints, arctic's
 * `OAuth2Client` (confidential clients), or arctic's token request with the `Origin` header
 * Entra wants from public clients.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient";
import { MicrosoftEntraId, OAuth2Client } from "arctic";
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
import {
  type ResolvedEndpoints,
  resolveEndpoints,
  validateEndpoint,
} from "../ProviderEndpoints.js";
import { type ArcticFlow, clientFlow } from "./arcticFlow.js";
import { getProfile, profileOptions, toUser } from "./profileRequest.js";
import { sendTokenForm } from "./tokenForm.js";
import { tokenRequest } from "./tokenRequest.js";

/** The tenant used when none is configured: any work, school or personal account. @since 0.1.0 */
export const DEFAULT_TENANT = "common";

/** The Entra login host of the global cloud (arctic's). @since 0.1.0 */
export const DEFAULT_LOGIN_HOST = "https://login.microsoftonline.com";

/** Microsoft's profile API. @since 0.1.0 */
export const defaultApi = "https://graph.microsoft.com";

/** The userinfo path under the profile API. @since 0.1.0 */
export const userinfoPath = "/oidc/userinfo";

/** Microsoft's OpenID Connect userinfo endpoint. @since 0.1.0 */
export const userinfoEndpoint = `${defaultApi}${userinfoPath}`;

const multiTenant: ReadonlySet<string> = new Set(["common", "organizations", "consumers"]);
const tenantId = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * `true` when `iss` names the tenant's authorization server: exactly
 * `${loginHost}/<tenant>/v2.0`, or for the multi-tenant aliases any tenant id in that form.
 *
 * @since 0.1.0
 */
export const acceptsIssuer = (tenant: string, loginHost: string = DEFAULT_LOGIN_HOST) => {
  const anyTenant = new RegExp(`^${escapeRegExp(loginHost)}/${tenantId}/v2\\.0$`);
  return (iss: string): boolean =>
    multiTenant.has(tenant) ? anyTenant.test(iss) : iss === `${loginHost}/${tenant}/v2.0`;
};

/** The flow of arctic's `MicrosoftEntraId` (the global cloud's endpoints). */
const entraFlow = (arctic: MicrosoftEntraId): ArcticFlow => ({
  authorizationUrl: (state, codeVerifier, scopes) =>
    arctic.createAuthorizationURL(state, codeVerifier ?? "", scopes),
  validateAuthorizationCode: (code, codeVerifier) =>
    arctic.validateAuthorizationCode(code, codeVerifier ?? ""),
  refreshAccessToken: (refreshToken, scopes) => arctic.refreshAccessToken(refreshToken, scopes),
});

/**
 * A public client at other endpoints: what `MicrosoftEntraId` sends without a secret (the
 * client id in the body, and an `Origin` header, which Entra requires from public clients),
 * which `OAuth2Client` cannot add.
 */
const publicClientFlow = (
  clientId: string,
  redirectUri: string,
  endpoints: ResolvedEndpoints,
): ArcticFlow => {
  const origin = { origin: new URL(redirectUri).origin };
  return {
    ...clientFlow(new OAuth2Client(clientId, null, redirectUri), endpoints, true),
    validateAuthorizationCode: (code, codeVerifier) =>
      sendTokenForm(
        endpoints.token,
        new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectUri,
          code_verifier: codeVerifier ?? "",
          client_id: clientId,
        }),
        origin,
      ),
    refreshAccessToken: (refreshToken, scopes) =>
      sendTokenForm(
        endpoints.token,
        new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: refreshToken,
          client_id: clientId,
          ...(scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
        }),
        origin,
      ),
  };
};

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
    const loginHost = (
      config.loginHost === undefined
        ? DEFAULT_LOGIN_HOST
        : yield* validateEndpoint("microsoft", "loginHost", config.loginHost, false)
    ).replace(/\/+$/, "");
    const endpoints = yield* resolveEndpoints("microsoft", config.endpoints, {
      authorization: `${loginHost}/${tenant}/oauth2/v2.0/authorize`,
      token: `${loginHost}/${tenant}/oauth2/v2.0/token`,
      api: defaultApi,
    });
    // arctic's MicrosoftEntraId knows only the global cloud's login host.
    const flow: ArcticFlow =
      !endpoints.overridden && loginHost === DEFAULT_LOGIN_HOST
        ? entraFlow(new MicrosoftEntraId(tenant, config.clientId, secret, config.redirectUri))
        : secret === null
          ? publicClientFlow(config.clientId, config.redirectUri, endpoints)
          : clientFlow(
              new OAuth2Client(config.clientId, secret, config.redirectUri),
              endpoints,
              true,
            );
    const userinfo = `${endpoints.api}${userinfoPath}`;

    return OAuthProvider.of({
      name: "microsoft",
      pkce: true,
      oidc: true,
      redirectUri: config.redirectUri,
      defaultScopes: resolved.scopes,
      acceptsIssuer: acceptsIssuer(tenant, loginHost),
      authorizationUrl: (request) =>
        Effect.sync(() => {
          const scopes = [...request.scopes];
          if (request.offline === true && !scopes.includes("offline_access")) {
            scopes.push("offline_access");
          }
          const url = flow.authorizationUrl(request.state, request.codeVerifier, scopes);
          if (request.nonce !== undefined) url.searchParams.set("nonce", request.nonce);
          return url;
        }),
      exchangeCode: (exchange) =>
        tokenRequest(
          "microsoft",
          "token",
          timeout,
          () => flow.validateAuthorizationCode(exchange.code, exchange.codeVerifier),
          exchange.nonce,
        ).pipe(Effect.withSpan("Microsoft.exchangeCode")),
      refreshToken: (refreshToken, scopes) =>
        tokenRequest("microsoft", "refresh", timeout, () =>
          flow.refreshAccessToken(Redacted.value(refreshToken), [...(scopes ?? [])]),
        ).pipe(Effect.withSpan("Microsoft.refreshToken")),
      fetchProfile: (accessToken) =>
        Effect.map(getProfile(profile, userinfo, accessToken, Userinfo), (info) =>
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
