/**
 * GitHub's dialect of OAuth 2.0 and its REST API: the paths of its endpoints (on `github.com`
 * and under the API root), the API version Strata asks for, and the scope that lets it read the
 * email addresses. The `github` provider speaks it to GitHub; the development identity
 * provider's `github` dialect serves it.
 *
 * @since 0.1.0
 */

/** The authorization endpoint's path (on `github.com`). @since 0.1.0 @category github */
export const authorizationPath = "/login/oauth/authorize";

/** The token endpoint's path (on `github.com`). @since 0.1.0 @category github */
export const tokenPath = "/login/oauth/access_token";

/** The user's path under the REST API root. @since 0.1.0 @category github */
export const userPath = "/user";

/** The user's email addresses' path under the REST API root. @since 0.1.0 @category github */
export const emailsPath = "/user/emails";

/** The REST API version (the `x-github-api-version` header). @since 0.1.0 @category github */
export const API_VERSION = "2022-11-28";

/** The scope that lets an app read the user's email addresses. @since 0.1.0 @category github */
export const EMAIL_SCOPE = "user:email";
