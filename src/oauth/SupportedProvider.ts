/**
 * The five providers `effect-strata/oauth` supports, and their default scopes.
 *
 * @since 0.1.0
 */

/**
 * A provider identifier: `google` (arctic `Google`), `microsoft` (arctic `MicrosoftEntraId`),
 * `github` (arctic `GitHub`), `facebook` (arctic `Facebook`) or `twitter` (arctic `Twitter`).
 *
 * @since 0.1.0
 * @category providers
 */
export type SupportedProvider = "google" | "microsoft" | "github" | "facebook" | "twitter";

/** Every supported provider, in a fixed order. @since 0.1.0 @category providers */
export const supportedProviders: ReadonlyArray<SupportedProvider> = [
  "google",
  "microsoft",
  "github",
  "facebook",
  "twitter",
];

const known: ReadonlySet<string> = new Set(supportedProviders);

/**
 * `true` when `name` is one of the five provider identifiers. A set lookup, never an object
 * property read: `__proto__`, `constructor` and other prototype names are not providers.
 *
 * @since 0.1.0
 * @category providers
 */
export const isSupportedProvider = (name: unknown): name is SupportedProvider =>
  typeof name === "string" && known.has(name);

/**
 * The scopes requested when neither the configuration nor the caller gives a list (the
 * spec's table). `twitter` yields refresh tokens only with `offline.access` added.
 *
 * @since 0.1.0
 * @category providers
 */
export const defaultScopes: { readonly [P in SupportedProvider]: ReadonlyArray<string> } = {
  google: ["openid", "profile", "email"],
  microsoft: ["openid", "profile", "email"],
  github: ["user:email"],
  facebook: ["email", "public_profile"],
  twitter: ["users.read", "tweet.read"],
};

/**
 * The providers that take PKCE (S256): the authorization request carries a code challenge
 * and the token request the matching verifier.
 *
 * @since 0.1.0
 * @category providers
 */
export const usesPkce = (provider: SupportedProvider): boolean =>
  provider === "google" || provider === "microsoft" || provider === "twitter";

/**
 * The name of a configured provider: one of the five built-in ones, or the name an app gave a
 * generic OpenID Connect provider (`providers: { keycloak: { type: "oidc", ... } }`). Written
 * so that editors still suggest the five built-in names.
 *
 * @since 0.1.0
 * @category providers
 */
export type ProviderName = SupportedProvider | (string & {});

const providerNamePattern = /^[a-z][a-z0-9_-]{0,62}$/;

/**
 * `true` when `name` can name a generic provider: lower-case letters, digits, `-` and `_`,
 * starting with a letter (it becomes a path segment of `/auth/:provider`), neither a built-in
 * name nor a property of `Object.prototype` (`constructor`, `tostring`...).
 *
 * @since 0.1.0
 * @category providers
 */
export const isCustomProviderName = (name: unknown): name is string =>
  typeof name === "string" &&
  providerNamePattern.test(name) &&
  !isSupportedProvider(name) &&
  !(name in Object.prototype);
