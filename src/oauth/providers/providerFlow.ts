/**
 * The calls of one provider behind one shape: the authorization URL from arctic (its own
 * class at the provider's public endpoints, or its generic `OAuth2Client` at overridden ones:
 * arctic's classes hard-code their hosts), and the token requests arctic would send, sent by
 * Strata through the provider's `HttpClient` (`tokenForm.ts`). Each provider's deviations are
 * added by its own file.
 *
 * @since 0.1.0
 */
import { CodeChallengeMethod, OAuth2Client, type OAuth2Tokens } from "arctic";
import type * as Effect from "effect/Effect";
import type { TokenError } from "../OAuthError.js";
import type { ResolvedEndpoints } from "../ProviderEndpoints.js";
import type { ProviderHttp } from "./providerHttp.js";
import { exchangeCode, refreshAccessToken, revokeToken, type TokenClient } from "./tokenForm.js";

/** The calls a live provider makes. */
export interface ProviderFlow {
  /** The authorization URL; `codeVerifier` only for PKCE providers (S256). */
  readonly authorizationUrl: (
    state: string,
    codeVerifier: string | undefined,
    scopes: Array<string>,
  ) => URL;
  readonly validateAuthorizationCode: (
    code: string,
    codeVerifier: string | undefined,
  ) => Effect.Effect<OAuth2Tokens, TokenError>;
  readonly refreshAccessToken: (
    refreshToken: string,
    scopes: ReadonlyArray<string>,
  ) => Effect.Effect<OAuth2Tokens, TokenError>;
  /** Present when the provider has a revocation endpoint. */
  readonly revokeToken?: (token: string) => Effect.Effect<void, TokenError>;
}

/**
 * The flow of `client` at `endpoints`: the authorization URL of arctic's class for the
 * provider (`classUrl`) unless the endpoints are overridden (the class hard-codes its own),
 * else of arctic's `OAuth2Client` (PKCE S256 when `pkce`); `OAuth2Client`'s token requests
 * (client_secret_basic with a secret unless the client says post, the client id in the body
 * without one).
 */
export const clientFlow = (
  http: ProviderHttp,
  client: TokenClient,
  endpoints: ResolvedEndpoints,
  pkce: boolean,
  classUrl?: ProviderFlow["authorizationUrl"],
): ProviderFlow => {
  const arctic = new OAuth2Client(client.clientId, client.secret, client.redirectUri);
  const { revocation } = endpoints;
  return {
    authorizationUrl:
      (endpoints.overridden ? undefined : classUrl) ??
      ((state, codeVerifier, scopes) =>
        pkce
          ? arctic.createAuthorizationURLWithPKCE(
              endpoints.authorization,
              state,
              CodeChallengeMethod.S256,
              codeVerifier ?? "",
              scopes,
            )
          : arctic.createAuthorizationURL(endpoints.authorization, state, scopes)),
    validateAuthorizationCode: (code, codeVerifier) =>
      exchangeCode(http, client, endpoints.token, code, pkce ? (codeVerifier ?? "") : undefined),
    refreshAccessToken: (refreshToken, scopes) =>
      refreshAccessToken(http, client, endpoints.token, refreshToken, scopes),
    ...(revocation === undefined
      ? {}
      : { revokeToken: (token: string) => revokeToken(http, client, revocation, token) }),
  };
};

/** An arctic PKCE provider class (`Google`, `Twitter`, `MicrosoftEntraId`): its URL. */
export interface PkceProviderClass {
  createAuthorizationURL(state: string, codeVerifier: string, scopes: Array<string>): URL;
}

/** The authorization URL of an arctic PKCE provider class, as a flow's. */
export const pkceClassUrl =
  (arctic: PkceProviderClass): ProviderFlow["authorizationUrl"] =>
  (state, codeVerifier, scopes) =>
    arctic.createAuthorizationURL(state, codeVerifier ?? "", scopes);

/** An arctic provider class without PKCE (`GitHub`, `Facebook`): its URL. */
export interface PlainProviderClass {
  createAuthorizationURL(state: string, scopes: Array<string>): URL;
}

/** The authorization URL of an arctic provider class without PKCE, as a flow's. */
export const plainClassUrl =
  (arctic: PlainProviderClass): ProviderFlow["authorizationUrl"] =>
  (state, _codeVerifier, scopes) =>
    arctic.createAuthorizationURL(state, scopes);
