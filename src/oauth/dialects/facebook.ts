/**
 * Facebook's dialect of OAuth 2.0 and its Graph API: the version and paths of its endpoints,
 * the profile fields Strata maps, and the parameter proving the app secret. The `facebook`
 * provider speaks it to Facebook; the development identity provider's `facebook` dialect
 * serves it.
 *
 * @since 0.1.0
 */

/** The Graph API version of the OAuth endpoints. @since 0.1.0 @category facebook */
export const VERSION = "v16.0";

/** The authorization endpoint's path (on `www.facebook.com`). @since 0.1.0 @category facebook */
export const authorizationPath = `/${VERSION}/dialog/oauth` as const;

/** The token endpoint's path (on `graph.facebook.com`). @since 0.1.0 @category facebook */
export const tokenPath = `/${VERSION}/oauth/access_token` as const;

/** The profile's path under the Graph API. @since 0.1.0 @category facebook */
export const mePath = "/me";

/** The profile fields Strata maps (the `fields` parameter). @since 0.1.0 @category facebook */
export const PROFILE_FIELDS = "id,name,email,picture";

/** The parameter carrying the HMAC of the access token under the app secret. @since 0.1.0 @category facebook */
export const APPSECRET_PROOF = "appsecret_proof";
