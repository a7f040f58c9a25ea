/**
 * Microsoft Entra's dialect of OAuth 2.0 and OpenID Connect: the paths of its endpoints under
 * the login host (after the tenant) and the profile API, the scope that asks for a refresh
 * token, and the claim that says an email's domain owner verified it. The `microsoft` provider
 * speaks it to Entra; the development identity provider's `microsoft` dialect serves it.
 *
 * @since 0.1.0
 */

/** The authorization endpoint's path after `<login host>/<tenant>`. @since 0.1.0 @category microsoft */
export const authorizationPath = "/oauth2/v2.0/authorize";

/** The token endpoint's path after `<login host>/<tenant>`. @since 0.1.0 @category microsoft */
export const tokenPath = "/oauth2/v2.0/token";

/** The userinfo path under the profile API (Microsoft Graph). @since 0.1.0 @category microsoft */
export const userinfoPath = "/oidc/userinfo";

/** The scope that asks for a refresh token. @since 0.1.0 @category microsoft */
export const OFFLINE_SCOPE = "offline_access";

/** The claim saying the email's domain owner verified it (Entra's "xms_edov"). @since 0.1.0 @category microsoft */
export const EMAIL_VERIFIED_CLAIM = "xms_edov";
