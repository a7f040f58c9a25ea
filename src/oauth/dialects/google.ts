/**
 * Google's dialect of OAuth 2.0 and OpenID Connect: the paths of its endpoints (each under its
 * own host) and the parameter that asks for a refresh token. The `google` provider speaks it to
 * Google; the development identity provider's `google` dialect serves it.
 *
 * @since 0.1.0
 */

/** The authorization endpoint's path (on `accounts.google.com`). @since 0.1.0 @category google */
export const authorizationPath = "/o/oauth2/v2/auth";

/** The token endpoint's path (on `oauth2.googleapis.com`). @since 0.1.0 @category google */
export const tokenPath = "/token";

/** The revocation endpoint's path (on `oauth2.googleapis.com`). @since 0.1.0 @category google */
export const revocationPath = "/revoke";

/** The userinfo path under the profile API (`openidconnect.googleapis.com`). @since 0.1.0 @category google */
export const userinfoPath = "/v1/userinfo";

/** The authorization parameter, and its value, that asks for a refresh token. @since 0.1.0 @category google */
export const offlineParameter = { name: "access_type", value: "offline" } as const;
