/**
 * `microsoft`: arctic's `MicrosoftEntraId` (PKCE S256, OpenID Connect; tenant `common` by
 * default; a public client without a secret; on another login host or at overridden
 * endpoints, arctic's `OAuth2Client` builds the authorization URL). Token requests are the
 * ones `MicrosoftEntraId` makes, sent through the `HttpClient`: client_secret_basic, or for a
 * public client the client id in the body and the `Origin` header Entra wants. The profile
 * comes from Microsoft's OpenID userinfo endpoint; whether its email is verified, from the
 * ID token's `xms_edov` claim.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient";
import { MicrosoftEntraId } from "arctic";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import { decodeJwt } from "jose";
import * as MicrosoftDialect from "../dialects/microsoft.js";
import { type MicrosoftConfig, toRedacted, validateClient } from "../OAuthConfig.js";
import {
  OAuthConfigError,
  OAuthProvider,
  type ProviderSettings,
  resolveSettings,
} from "../OAuthProvider.js";
import type { OAuthTokens } from "../OAuthResult.js";
import { resolveEndpoints, validateEndpoint } from "../ProviderEndpoints.js";
import { claimIsTrue, getProfile, toUser } from "./profileRequest.js";
import { clientFlow, pkceClassUrl } from "./providerFlow.js";
import { providerHttp } from "./providerHttp.js";
import { tokenRequest } from "./tokenRequest.js";

/** The tenant used when none is configured: any work, school or personal account. @since 0.1.0 */
export const DEFAULT_TENANT = "common";

/** The Entra login host of the global cloud (arctic's). @since 0.1.0 */
export const DEFAULT_LOGIN_HOST = "https://login.microsoftonline.com";

/** Microsoft's profile API. @since 0.1.0 */
export const defaultApi = "https://graph.microsoft.com";

/** The userinfo path under the profile API. @since 0.1.0 */
export const userinfoPath = MicrosoftDialect.userinfoPath;

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

const Userinfo = Schema.Struct({
  sub: Schema.String,
  email: Schema.optional(Schema.NullOr(Schema.String)),
  name: Schema.optional(Schema.NullOr(Schema.String)),
  picture: Schema.optional(Schema.NullOr(Schema.String)),
});

/**
 * `true` when the ID token the access token came with has `xms_edov` (the optional claim
 * "email domain owner verified") true, about the userinfo's subject and address. Entra's
 * `email` claim is otherwise unverified: any tenant can set any address ("nOAuth"). An ID
 * token that is absent or unreadable, another `sub` or another `email` verify nothing.
 */
const emailDomainOwnerVerified = (
  info: typeof Userinfo.Type,
  tokens: OAuthTokens | undefined,
): boolean => {
  const idToken = tokens?.idToken;
  if (idToken === undefined) return false;
  const claims = Either.getOrUndefined(Either.try(() => decodeJwt(Redacted.value(idToken))));
  return (
    claims !== undefined &&
    claims.sub === info.sub &&
    claims.email === info.email &&
    claimIsTrue(claims[MicrosoftDialect.EMAIL_VERIFIED_CLAIM])
  );
};

/**
 * The live `microsoft` provider. `offline` adds the `offline_access` scope (refresh token).
 * Entra does not verify the `email` claim: it is kept with `emailVerified: false` (a contact
 * address, not proof of ownership) unless the ID token in `tokens` carries `xms_edov: true`,
 * an optional claim to add in the app registration's token configuration.
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
    const http = yield* providerHttp("microsoft", resolved);
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
      authorization: `${loginHost}/${tenant}${MicrosoftDialect.authorizationPath}`,
      token: `${loginHost}/${tenant}${MicrosoftDialect.tokenPath}`,
      api: defaultApi,
    });
    const flow = clientFlow(
      http,
      {
        clientId: config.clientId,
        secret,
        redirectUri: config.redirectUri,
        // Entra requires an `Origin` from public clients (any value: arctic sends "arctic").
        ...(secret === null ? { headers: { origin: new URL(config.redirectUri).origin } } : {}),
      },
      endpoints,
      true,
      // arctic's MicrosoftEntraId knows only the global cloud's login host.
      loginHost === DEFAULT_LOGIN_HOST
        ? pkceClassUrl(new MicrosoftEntraId(tenant, config.clientId, secret, config.redirectUri))
        : undefined,
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
          if (request.offline === true && !scopes.includes(MicrosoftDialect.OFFLINE_SCOPE)) {
            scopes.push(MicrosoftDialect.OFFLINE_SCOPE);
          }
          const url = flow.authorizationUrl(request.state, request.codeVerifier, scopes);
          if (request.nonce !== undefined) url.searchParams.set("nonce", request.nonce);
          return url;
        }),
      exchangeCode: (exchange) =>
        tokenRequest(
          "microsoft",
          flow.validateAuthorizationCode(exchange.code, exchange.codeVerifier),
          exchange.nonce,
        ).pipe(Effect.withSpan("Microsoft.exchangeCode")),
      refreshToken: (refreshToken, scopes) =>
        tokenRequest(
          "microsoft",
          flow.refreshAccessToken(Redacted.value(refreshToken), scopes ?? []),
        ).pipe(Effect.withSpan("Microsoft.refreshToken")),
      fetchProfile: (accessToken, tokens) =>
        Effect.map(getProfile(http, userinfo, accessToken, Userinfo), (info) =>
          toUser({
            id: info.sub,
            email: info.email,
            emailVerified: emailDomainOwnerVerified(info, tokens),
            name: info.name,
            picture: info.picture,
          }),
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
