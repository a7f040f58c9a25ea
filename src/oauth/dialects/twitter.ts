/**
 * X's (Twitter's) dialect of OAuth 2.0 and its API v2: the paths of its endpoints, the profile
 * field Strata asks for beyond the default ones, and the scope that asks for a refresh token.
 * The `twitter` provider speaks it to X; the development identity provider's `twitter` dialect
 * serves it.
 *
 * @since 0.1.0
 */

/** The authorization endpoint's path (on `twitter.com`). @since 0.1.0 @category twitter */
export const authorizationPath = "/i/oauth2/authorize";

/** The token endpoint's path (on `api.twitter.com`). @since 0.1.0 @category twitter */
export const tokenPath = "/2/oauth2/token";

/** The revocation endpoint's path (on `api.twitter.com`). @since 0.1.0 @category twitter */
export const revocationPath = "/2/oauth2/revoke";

/** The profile's path under the API root. @since 0.1.0 @category twitter */
export const mePath = "/2/users/me";

/** The profile field asked for beyond the defaults (in `user.fields`). @since 0.1.0 @category twitter */
export const PICTURE_FIELD = "profile_image_url";

/** The scope that asks for a refresh token. @since 0.1.0 @category twitter */
export const OFFLINE_SCOPE = "offline.access";
