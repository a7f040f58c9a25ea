/**
 * The configuration of `effect-strata/oauth`: per-provider credentials, default scopes, timeouts and
 * the profile size cap, from code (`OAuthConfigFromEnv.ts` reads it from the environment).
 *
 * @since 0.1.0
 */
import type * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import { OAuthConfigError, type ProviderSettings } from "./OAuthProvider.js";
import type { ProviderEndpoints } from "./ProviderEndpoints.js";
import {
  isSupportedProvider,
  type ProviderName,
  type SupportedProvider,
  supportedProviders,
} from "./SupportedProvider.js";

/**
 * A secret: `Redacted` (kept so until the call that needs it), or a plain string for
 * convenience (wrapped at once).
 *
 * @since 0.1.0
 * @category config
 */
export type Secret = string | Redacted.Redacted<string>;

/** A secret as `Redacted`. @since 0.1.0 @category config */
export const toRedacted = (secret: Secret): Redacted.Redacted<string> =>
  typeof secret === "string" ? Redacted.make(secret) : secret;

/**
 * Credentials of a confidential client.
 *
 * @since 0.1.0
 * @category config
 */
export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: Secret;
  /** The callback URL registered with the provider; sent as is, never derived from a request. */
  readonly redirectUri: string;
}

/** `google` (arctic `Google`, PKCE, OpenID Connect). @since 0.1.0 @category config */
export interface GoogleConfig extends ClientCredentials {
  /** Moves Google's endpoints (proxies, local development); defaults are Google's. */
  readonly endpoints?: ProviderEndpoints;
}

/** `github` (arctic `GitHub`). @since 0.1.0 @category config */
export interface GitHubConfig extends ClientCredentials {
  /**
   * Moves GitHub's endpoints: for GitHub Enterprise Server, `authorization`
   * `https://HOST/login/oauth/authorize`, `token` `https://HOST/login/oauth/access_token`,
   * `api` `https://HOST/api/v3`.
   */
  readonly endpoints?: ProviderEndpoints;
}

/** `facebook` (arctic `Facebook`). @since 0.1.0 @category config */
export interface FacebookConfig extends ClientCredentials {
  /** Moves Facebook's endpoints (proxies, local development); defaults are Facebook's. */
  readonly endpoints?: ProviderEndpoints;
}

/**
 * `microsoft` (arctic `MicrosoftEntraId`, PKCE, OpenID Connect). Without a secret it is a
 * public client.
 *
 * @since 0.1.0
 * @category config
 */
export interface MicrosoftConfig {
  readonly clientId: string;
  readonly clientSecret?: Secret | null;
  readonly redirectUri: string;
  /** The Entra tenant: `common` (default, multi-tenant), `organizations`, `consumers` or an id. */
  readonly tenant?: string;
  /**
   * The Entra login host (default `https://login.microsoftonline.com`; national clouds:
   * `https://login.microsoftonline.us`, `https://login.chinacloudapi.cn`). The authorization
   * and token endpoints default to `${loginHost}/${tenant}/oauth2/v2.0/authorize|token`, and
   * the accepted `iss` is `${loginHost}/${tenant}/v2.0`.
   */
  readonly loginHost?: string;
  /** Moves single endpoints (the profile API of a national cloud: `api`). */
  readonly endpoints?: ProviderEndpoints;
}

/**
 * `twitter` (arctic `Twitter`, PKCE). Without a secret it is a public client (PKCE only).
 *
 * @since 0.1.0
 * @category config
 */
export interface TwitterConfig {
  readonly clientId: string;
  readonly clientSecret?: Secret | null;
  readonly redirectUri: string;
  /** Moves Twitter's endpoints (proxies, local development); defaults are Twitter's. */
  readonly endpoints?: ProviderEndpoints;
}

/**
 * A generic OpenID Connect provider (Keycloak, Auth0, Okta, Authentik, ...) under a name the
 * app chooses: `providers: { keycloak: { type: "oidc", issuer, clientId, ... } }`. Its
 * endpoints come from the issuer's discovery document (read once, at startup); it uses PKCE
 * S256 and a nonce, checks `iss` on the callback (RFC 9207), verifies the ID token against
 * the issuer's JWKS, and matches the userinfo `sub` with the ID token's.
 *
 * @since 0.1.0
 * @category config
 */
export interface OidcProviderConfig {
  readonly type: "oidc";
  /** The issuer identifier, exactly as the discovery document and the ID tokens carry it. */
  readonly issuer: string;
  readonly clientId: string;
  /** Without a secret, a public client (PKCE, the client id in the token request). */
  readonly clientSecret?: Secret | null;
  /** The callback URL registered with the provider; sent as is, never derived from a request. */
  readonly redirectUri: string;
  /** The scopes asked for (default `openid profile email`; `openid` is always added). */
  readonly scopes?: ReadonlyArray<string>;
  /**
   * How a confidential client authenticates at the token endpoint. Default:
   * `client_secret_basic` unless the discovery document lists only `client_secret_post`.
   */
  readonly tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post";
}

/** The configuration of any one provider. @since 0.1.0 @category config */
export type ProviderConfig =
  | GoogleConfig
  | MicrosoftConfig
  | GitHubConfig
  | FacebookConfig
  | TwitterConfig
  | OidcProviderConfig;

/**
 * The configured providers; only these are served. The five built-in providers under their
 * names, and any number of generic OpenID Connect providers (`type: "oidc"`) under names the
 * app chooses (lower-case letters, digits, `-`, `_`).
 *
 * @since 0.1.0
 * @category config
 */
export interface OAuthProvidersConfig {
  readonly google?: GoogleConfig;
  readonly microsoft?: MicrosoftConfig;
  readonly github?: GitHubConfig;
  readonly facebook?: FacebookConfig;
  readonly twitter?: TwitterConfig;
  readonly [name: string]: ProviderConfig | undefined;
}

/**
 * The configuration of the OAuth pipeline.
 *
 * @since 0.1.0
 * @category config
 */
export interface OAuthConfig {
  readonly providers: OAuthProvidersConfig;
  /** Replaces a provider's default scopes (the full list). */
  readonly defaultScopes?: { readonly [P in SupportedProvider]?: ReadonlyArray<string> };
  /** Timeout of every outbound provider call, token exchange included (default 10 s). */
  readonly timeout?: Duration.DurationInput;
  /** Largest provider response read (profile, token answer, key set), in bytes (default 1 MB). */
  readonly maxProfileBytes?: number;
  /** The `User-Agent` of every provider request. */
  readonly userAgent?: string;
}

/**
 * Names no provider may have: the built-in routes' own paths (`GET /auth/session`,
 * `POST /auth/logout`) win over `/auth/:provider`, so a provider named so could never sign in.
 * The routes refuse to start with one configured.
 *
 * @since 0.1.0
 * @category config
 */
export const reservedProviderNames: ReadonlySet<string> = new Set(["session", "logout"]);

/** The settings of one provider under `config` (defaults applied later). @since 0.1.0 @category config */
export const settingsFor = (
  config: Omit<OAuthConfig, "providers">,
  provider: ProviderName,
): ProviderSettings => ({
  ...(!isSupportedProvider(provider) || config.defaultScopes?.[provider] === undefined
    ? {}
    : { scopes: config.defaultScopes[provider] }),
  ...(config.timeout === undefined ? {} : { timeout: config.timeout }),
  ...(config.maxProfileBytes === undefined ? {} : { maxProfileBytes: config.maxProfileBytes }),
  ...(config.userAgent === undefined ? {} : { userAgent: config.userAgent }),
});

/** The configured built-in providers, in the fixed order of {@link supportedProviders}. @since 0.1.0 @category config */
export const configuredProviders = (
  providers: OAuthProvidersConfig,
): ReadonlyArray<SupportedProvider> =>
  supportedProviders.filter((name) => Object.hasOwn(providers, name) && providers[name] != null);

/** `true` for the configuration of a generic OpenID Connect provider. @since 0.1.0 @category config */
export const isOidcConfig = (config: unknown): config is OidcProviderConfig =>
  typeof config === "object" &&
  config !== null &&
  (config as { readonly type?: unknown }).type === "oidc";

/**
 * Checks what would otherwise fail at request time: a client id, an absolute http(s)
 * redirect URI without credentials or fragment.
 *
 * @since 0.1.0
 * @category config
 */
export const validateClient = (
  provider: ProviderName,
  config: { readonly clientId: string; readonly redirectUri: string },
): Effect.Effect<void, OAuthConfigError> => {
  if (typeof config.clientId !== "string" || config.clientId.trim() === "") {
    return Effect.fail(new OAuthConfigError({ message: `${provider}: clientId is required` }));
  }
  let url: URL;
  try {
    url = new URL(config.redirectUri);
  } catch {
    return Effect.fail(
      new OAuthConfigError({ message: `${provider}: redirectUri must be an absolute URL` }),
    );
  }
  if (
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.username !== "" ||
    url.password !== "" ||
    url.hash !== ""
  ) {
    return Effect.fail(
      new OAuthConfigError({
        message: `${provider}: redirectUri must be an http(s) URL without credentials or fragment`,
      }),
    );
  }
  return Effect.void;
};
