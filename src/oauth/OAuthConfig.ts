/**
 * The configuration of `effect-strata/oauth`: per-provider credentials, default scopes, timeouts and
 * the profile size cap; from code, or from environment variables with Effect `Config`.
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config";
import * as ConfigError from "effect/ConfigError";
import type * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
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

const envName = (provider: SupportedProvider, suffix: string) =>
  `${provider.toUpperCase()}_${suffix}`;

const secretOptional = (provider: SupportedProvider) =>
  provider === "twitter" || provider === "microsoft";

/**
 * The redirect URI of `provider` from `OAUTH_REDIRECT_URI`: `{provider}` in it is replaced by
 * the provider name (e.g. `https://app.example/auth/{provider}/callback`); without it, the
 * URI is used as is for every provider.
 */
const sharedRedirect = (template: string, provider: SupportedProvider): string =>
  template.replaceAll("{provider}", provider);

const perProvider = <A>(read: (provider: SupportedProvider) => Config.Config<A>) =>
  Config.all(Object.fromEntries(supportedProviders.map((p) => [p, read(p)]))) as Config.Config<{
    readonly [P in SupportedProvider]: A;
  }>;

/** The endpoint overrides read from the environment, as a config field (none: no field). */
const endpointsOf = (
  read: {
    readonly [K in keyof ProviderEndpoints]-?: Option.Option<string>;
  },
): { readonly endpoints?: ProviderEndpoints } => {
  const endpoints: Record<string, string> = {};
  for (const [field, value] of Object.entries(read)) {
    if (Option.isSome(value)) endpoints[field] = value.value;
  }
  return Object.keys(endpoints).length === 0 ? {} : { endpoints };
};

/**
 * The configuration read from the environment (the examples' convention): a provider is
 * configured when `<PROVIDER>_CLIENT_ID` is set (a `<PROVIDER>_CLIENT_SECRET` without it is an
 * error, not a provider left out); then `<PROVIDER>_CLIENT_SECRET` (optional for
 * `twitter` and `microsoft`), `<PROVIDER>_REDIRECT_URI` or else the shared
 * `OAUTH_REDIRECT_URI` (`{provider}` replaced by the name), `MICROSOFT_TENANT`,
 * `MICROSOFT_LOGIN_HOST`, and `OAUTH_TIMEOUT` (e.g. `10 seconds`). Endpoint overrides (see
 * `ProviderEndpoints`): `<PROVIDER>_AUTHORIZATION_URL`, `<PROVIDER>_TOKEN_URL`,
 * `<PROVIDER>_REVOCATION_URL` and `<PROVIDER>_API_URL`.
 *
 * @since 0.1.0
 * @category config
 */
export const fromEnv: Config.Config<OAuthConfig> = Config.all({
  ids: perProvider((p) => Config.option(Config.nonEmptyString(envName(p, "CLIENT_ID")))),
  secrets: perProvider((p) => Config.option(Config.redacted(envName(p, "CLIENT_SECRET")))),
  redirects: perProvider((p) => Config.option(Config.nonEmptyString(envName(p, "REDIRECT_URI")))),
  shared: Config.option(Config.nonEmptyString("OAUTH_REDIRECT_URI")),
  tenant: Config.option(Config.nonEmptyString("MICROSOFT_TENANT")),
  loginHost: Config.option(Config.nonEmptyString("MICROSOFT_LOGIN_HOST")),
  timeout: Config.option(Config.duration("OAUTH_TIMEOUT")),
  endpoints: perProvider((p) =>
    Config.all({
      authorization: Config.option(Config.nonEmptyString(envName(p, "AUTHORIZATION_URL"))),
      token: Config.option(Config.nonEmptyString(envName(p, "TOKEN_URL"))),
      revocation: Config.option(Config.nonEmptyString(envName(p, "REVOCATION_URL"))),
      api: Config.option(Config.nonEmptyString(envName(p, "API_URL"))),
    }),
  ),
}).pipe(
  Config.mapOrFail(({ ids, secrets, redirects, shared, tenant, loginHost, timeout, endpoints }) => {
    const providers: Record<string, unknown> = {};
    for (const provider of supportedProviders) {
      const clientId = ids[provider];
      const secret = secrets[provider];
      if (Option.isNone(clientId)) {
        // A secret without its id is a half-made configuration, not "this provider is off".
        if (Option.isNone(secret)) continue;
        return Either.left(
          ConfigError.MissingData(
            [envName(provider, "CLIENT_ID")],
            `${envName(provider, "CLIENT_ID")} is required when ${envName(provider, "CLIENT_SECRET")} is set`,
          ),
        );
      }
      const redirect = Option.orElse(redirects[provider], () =>
        Option.map(shared, (template) => sharedRedirect(template, provider)),
      );
      if (Option.isNone(redirect)) {
        return Either.left(
          ConfigError.MissingData(
            [envName(provider, "REDIRECT_URI")],
            `${envName(provider, "REDIRECT_URI")} or OAUTH_REDIRECT_URI is required when ${envName(provider, "CLIENT_ID")} is set`,
          ),
        );
      }
      if (Option.isNone(secret) && !secretOptional(provider)) {
        return Either.left(
          ConfigError.MissingData(
            [envName(provider, "CLIENT_SECRET")],
            `${envName(provider, "CLIENT_SECRET")} is required when ${envName(provider, "CLIENT_ID")} is set`,
          ),
        );
      }
      providers[provider] = {
        clientId: clientId.value,
        clientSecret: Option.getOrNull(secret),
        redirectUri: redirect.value,
        ...(provider === "microsoft" && Option.isSome(tenant) ? { tenant: tenant.value } : {}),
        ...(provider === "microsoft" && Option.isSome(loginHost)
          ? { loginHost: loginHost.value }
          : {}),
        ...endpointsOf(endpoints[provider]),
      };
    }
    const config: OAuthConfig = {
      providers: providers as OAuthProvidersConfig,
      ...(Option.isSome(timeout) ? { timeout: timeout.value } : {}),
    };
    return Either.right(config);
  }),
);
