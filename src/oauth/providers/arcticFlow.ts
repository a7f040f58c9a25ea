/**
 * The arctic calls of one provider behind one shape: arctic's own class at the provider's
 * public endpoints, or arctic's generic `OAuth2Client` at overridden ones (arctic's provider
 * classes hard-code their hosts). `OAuth2Client` sends the same requests as the `Google`,
 * `Twitter` and (confidential) `MicrosoftEntraId` classes; the other providers' deviations
 * are added by their own files.
 *
 * @since 0.1.0
 */
import { CodeChallengeMethod, type OAuth2Client, type OAuth2Tokens } from "arctic";
import type { ResolvedEndpoints } from "../ProviderEndpoints.js";

/** The arctic calls a live provider makes. */
export interface ArcticFlow {
  /** The authorization URL; `codeVerifier` only for PKCE providers (S256). */
  readonly authorizationUrl: (
    state: string,
    codeVerifier: string | undefined,
    scopes: Array<string>,
  ) => URL;
  readonly validateAuthorizationCode: (
    code: string,
    codeVerifier: string | undefined,
  ) => Promise<OAuth2Tokens>;
  readonly refreshAccessToken: (
    refreshToken: string,
    scopes: Array<string>,
  ) => Promise<OAuth2Tokens>;
  /** Present when the provider has a revocation endpoint. */
  readonly revokeToken?: (token: string) => Promise<void>;
}

/**
 * The flow of arctic's `OAuth2Client` at `endpoints`: client_secret_basic with a secret, the
 * client id in the body without one (public client), PKCE S256 when `pkce`.
 */
export const clientFlow = (
  client: OAuth2Client,
  endpoints: ResolvedEndpoints,
  pkce: boolean,
): ArcticFlow => {
  const { revocation } = endpoints;
  return {
    authorizationUrl: (state, codeVerifier, scopes) =>
      pkce
        ? client.createAuthorizationURLWithPKCE(
            endpoints.authorization,
            state,
            CodeChallengeMethod.S256,
            codeVerifier ?? "",
            scopes,
          )
        : client.createAuthorizationURL(endpoints.authorization, state, scopes),
    validateAuthorizationCode: (code, codeVerifier) =>
      client.validateAuthorizationCode(endpoints.token, code, pkce ? (codeVerifier ?? "") : null),
    refreshAccessToken: (refreshToken, scopes) =>
      client.refreshAccessToken(endpoints.token, refreshToken, scopes),
    ...(revocation === undefined
      ? {}
      : { revokeToken: (token: string) => client.revokeToken(revocation, token) }),
  };
};

/** An arctic PKCE provider class (`Google`, `Twitter`): the same methods at fixed endpoints. */
export interface PkceProviderClass {
  createAuthorizationURL(state: string, codeVerifier: string, scopes: Array<string>): URL;
  validateAuthorizationCode(code: string, codeVerifier: string): Promise<OAuth2Tokens>;
  refreshAccessToken(refreshToken: string): Promise<OAuth2Tokens>;
  revokeToken(token: string): Promise<void>;
}

/** The flow of an arctic PKCE provider class at its public endpoints. */
export const pkceClassFlow = (arctic: PkceProviderClass): ArcticFlow => ({
  authorizationUrl: (state, codeVerifier, scopes) =>
    arctic.createAuthorizationURL(state, codeVerifier ?? "", scopes),
  validateAuthorizationCode: (code, codeVerifier) =>
    arctic.validateAuthorizationCode(code, codeVerifier ?? ""),
  refreshAccessToken: (refreshToken) => arctic.refreshAccessToken(refreshToken),
  revokeToken: (token) => arctic.revokeToken(token),
});
