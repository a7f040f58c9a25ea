/**
 * `type: "oidc"`: a generic OpenID Connect provider under a name the app chooses (Keycloak,
 * Auth0, Okta, Authentik, ...). Its endpoints come from the issuer's discovery document (read
 * once, at startup); the authorization URL is arctic's `OAuth2Client`'s (PKCE S256) and the
 * token requests the ones it makes (or client_secret_post), sent through the `HttpClient`, as
 * are the JWKS and userinfo requests; the ID token is verified with `jose` against the
 * issuer's keys, and the profile is the userinfo answer about the ID token's subject.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import { decodeJwt } from "jose";
import { type OidcProviderConfig, toRedacted, validateClient } from "../OAuthConfig.js";
import { ProfileFetchFailed, TokenResponseMalformed } from "../OAuthError.js";
import {
  OAuthConfigError,
  OAuthProvider,
  type ProviderSettings,
  resolveSettings,
} from "../OAuthProvider.js";
import type { OAuthTokens } from "../OAuthResult.js";
import { type ResolvedEndpoints, validateEndpoint } from "../ProviderEndpoints.js";
import { isCustomProviderName } from "../SupportedProvider.js";
import { makeIdTokenVerifier, signingAlgorithms } from "./idToken.js";
import { discover, type OidcMetadata } from "./oidcDiscovery.js";
import { claimIsTrue, getProfile, toUser } from "./profileRequest.js";
import { clientFlow } from "./providerFlow.js";
import { providerHttp } from "./providerHttp.js";
import { revocation, tokenRequest } from "./tokenRequest.js";

/** The scopes asked for when the configuration gives none. @since 0.1.0 */
export const DEFAULT_SCOPES: ReadonlyArray<string> = ["openid", "profile", "email"];

/** The standard claims Strata maps (userinfo answer or ID token). */
const Claims = Schema.Struct({
  sub: Schema.String,
  email: Schema.optional(Schema.NullOr(Schema.String)),
  email_verified: Schema.optional(Schema.NullOr(Schema.Union(Schema.Boolean, Schema.String))),
  name: Schema.optional(Schema.NullOr(Schema.String)),
  preferred_username: Schema.optional(Schema.NullOr(Schema.String)),
  picture: Schema.optional(Schema.NullOr(Schema.String)),
});

/** The user of some claims: the email only when `email_verified` (absent counts as false). */
const toOidcUser = (claims: typeof Claims.Type) => {
  const verified = claimIsTrue(claims.email_verified);
  return toUser({
    id: claims.sub,
    email: verified ? claims.email : undefined,
    emailVerified: verified,
    name: claims.name ?? claims.preferred_username,
    picture: claims.picture,
  });
};

/** The token endpoint authentication of a client: its choice, else the issuer's. */
const authMethod = (
  config: OidcProviderConfig,
  metadata: OidcMetadata,
  secret: string | null,
): "none" | "client_secret_basic" | "client_secret_post" => {
  if (secret === null) return "none";
  if (config.tokenEndpointAuthMethod !== undefined) return config.tokenEndpointAuthMethod;
  const supported = metadata.token_endpoint_auth_methods_supported;
  return supported !== undefined &&
    !supported.includes("client_secret_basic") &&
    supported.includes("client_secret_post")
    ? "client_secret_post"
    : "client_secret_basic";
};

/**
 * The live provider called `name`. Startup fails with an {@link OAuthConfigError} when the
 * discovery document cannot be read or does not name `issuer`. `iss` is required on callbacks
 * when the issuer says it sends it (RFC 9207); the email is kept only when `email_verified` is
 * true (absent counts as false), so `emailVerified` is then `true`;
 * `name` falls back to `preferred_username`. Revocation is offered with client_secret_basic
 * and public clients when the issuer has a revocation endpoint.
 *
 * @since 0.1.0
 * @category providers
 */
export const make = (
  name: string,
  config: OidcProviderConfig,
  settings?: ProviderSettings,
): Effect.Effect<typeof OAuthProvider.Service, OAuthConfigError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    if (!isCustomProviderName(name)) {
      return yield* new OAuthConfigError({
        message: `${name}: an OpenID Connect provider needs a name of lower-case letters, digits, - or _ that is not a built-in provider's`,
      });
    }
    yield* validateClient(name, config);
    yield* validateEndpoint(name, "issuer", config.issuer, false);
    const scopes = config.scopes ?? DEFAULT_SCOPES;
    const resolved = resolveSettings(name, {
      ...settings,
      scopes: scopes.includes("openid") ? scopes : ["openid", ...scopes],
    });
    const http = yield* providerHttp(name, resolved);
    const metadata = yield* discover(config.issuer, http);
    const secret =
      config.clientSecret === undefined || config.clientSecret === null
        ? null
        : Redacted.value(toRedacted(config.clientSecret));
    const endpoints: ResolvedEndpoints = {
      authorization: metadata.authorization_endpoint,
      token: metadata.token_endpoint,
      api: metadata.issuer,
      ...(metadata.revocation_endpoint === undefined
        ? {}
        : { revocation: metadata.revocation_endpoint }),
      overridden: true,
    };
    const method = authMethod(config, metadata, secret);
    const flow = clientFlow(
      http,
      {
        clientId: config.clientId,
        secret,
        redirectUri: config.redirectUri,
        ...(method === "client_secret_post" ? { authentication: method } : {}),
      },
      endpoints,
      true,
    );
    const verify = yield* makeIdTokenVerifier(http, {
      issuer: metadata.issuer,
      clientId: config.clientId,
      jwksUri: metadata.jwks_uri,
      algorithms: signingAlgorithms(metadata.id_token_signing_alg_values_supported),
    });

    /** Tokens whose ID token (required when `required`) passed verification. */
    const verified = (tokens: OAuthTokens, nonce: string | undefined, required: boolean) =>
      tokens.idToken === undefined
        ? required
          ? Effect.fail(new TokenResponseMalformed({ provider: name }))
          : Effect.succeed(tokens)
        : Effect.as(verify(Redacted.value(tokens.idToken), nonce), tokens);

    /** The claims of the ID token the access token came with (verified by the exchange). */
    const idTokenClaims = (tokens: OAuthTokens | undefined) => {
      const idToken = tokens?.idToken;
      return idToken === undefined
        ? Effect.succeed(undefined)
        : Effect.try({
            try: () => decodeJwt(Redacted.value(idToken)),
            catch: () => new ProfileFetchFailed({ provider: name, reason: "malformed" }),
          });
    };

    const userinfo = metadata.userinfo_endpoint;
    return OAuthProvider.of({
      name,
      pkce: true,
      oidc: true,
      redirectUri: config.redirectUri,
      defaultScopes: resolved.scopes,
      acceptsIssuer: (iss) => iss === metadata.issuer,
      requiresIssuer: metadata.authorization_response_iss_parameter_supported === true,
      authorizationUrl: (request) =>
        Effect.sync(() => {
          const url = flow.authorizationUrl(request.state, request.codeVerifier, [
            ...request.scopes,
          ]);
          if (request.nonce !== undefined) url.searchParams.set("nonce", request.nonce);
          return url;
        }),
      exchangeCode: (exchange) =>
        tokenRequest(
          name,
          flow.validateAuthorizationCode(exchange.code, exchange.codeVerifier),
        ).pipe(
          Effect.flatMap((tokens) => verified(tokens, exchange.nonce, true)),
          Effect.withSpan("OidcProvider.exchangeCode"),
        ),
      refreshToken: (refreshToken, refreshScopes) =>
        tokenRequest(
          name,
          flow.refreshAccessToken(Redacted.value(refreshToken), refreshScopes ?? []),
        ).pipe(
          Effect.flatMap((tokens) => verified(tokens, undefined, false)),
          Effect.withSpan("OidcProvider.refreshToken"),
        ),
      ...(method === "client_secret_post" ? {} : revocation(flow, "OidcProvider.revokeToken")),
      fetchProfile: (accessToken, tokens) =>
        Effect.gen(function* () {
          const idClaims = yield* idTokenClaims(tokens);
          if (userinfo === undefined) {
            if (idClaims === undefined) {
              return yield* new ProfileFetchFailed({ provider: name, reason: "malformed" });
            }
            return toOidcUser(
              yield* Schema.decodeUnknown(Claims)(idClaims).pipe(
                Effect.mapError(
                  () => new ProfileFetchFailed({ provider: name, reason: "malformed" }),
                ),
              ),
            );
          }
          const info = yield* getProfile(http, userinfo, accessToken, Claims);
          // OpenID Connect Core 5.3.2: the userinfo answer must be about the ID token's subject.
          if (idClaims !== undefined && info.sub !== idClaims.sub) {
            return yield* new ProfileFetchFailed({ provider: name, reason: "subject_mismatch" });
          }
          return toOidcUser(info);
        }).pipe(Effect.withSpan("OidcProvider.fetchProfile")),
    });
  });

/**
 * The live provider called `name` as a Layer (discovery, profile requests: the `HttpClient`
 * in context).
 *
 * @since 0.1.0
 * @category providers
 */
export const layer = (
  name: string,
  config: OidcProviderConfig,
  settings?: ProviderSettings,
): Layer.Layer<OAuthProvider, OAuthConfigError, HttpClient.HttpClient> =>
  Layer.effect(OAuthProvider, make(name, config, settings));
