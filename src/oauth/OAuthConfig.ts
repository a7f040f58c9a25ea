/**
 * The configuration of `strata/oauth`: per-provider credentials, default scopes, timeouts and
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
import { type SupportedProvider, supportedProviders } from "./SupportedProvider.js";

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
export interface GoogleConfig extends ClientCredentials {}

/** `github` (arctic `GitHub`). @since 0.1.0 @category config */
export interface GitHubConfig extends ClientCredentials {}

/** `facebook` (arctic `Facebook`). @since 0.1.0 @category config */
export interface FacebookConfig extends ClientCredentials {}

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
}

/**
 * The configured providers; only these are served.
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
  /** Largest profile response read, in bytes (default 1 MB). */
  readonly maxProfileBytes?: number;
  /** The `User-Agent` of profile requests. */
  readonly userAgent?: string;
}

/** The settings of one provider under `config` (defaults applied later). @since 0.1.0 @category config */
export const settingsFor = (
  config: Omit<OAuthConfig, "providers">,
  provider: SupportedProvider,
): ProviderSettings => ({
  ...(config.defaultScopes?.[provider] === undefined
    ? {}
    : { scopes: config.defaultScopes[provider] }),
  ...(config.timeout === undefined ? {} : { timeout: config.timeout }),
  ...(config.maxProfileBytes === undefined ? {} : { maxProfileBytes: config.maxProfileBytes }),
  ...(config.userAgent === undefined ? {} : { userAgent: config.userAgent }),
});

/** The configured providers, in the fixed order of {@link supportedProviders}. @since 0.1.0 @category config */
export const configuredProviders = (
  providers: OAuthProvidersConfig,
): ReadonlyArray<SupportedProvider> =>
  supportedProviders.filter((name) => Object.hasOwn(providers, name) && providers[name] != null);

/**
 * Checks what would otherwise fail at request time: a client id, an absolute http(s)
 * redirect URI without credentials or fragment.
 *
 * @since 0.1.0
 * @category config
 */
export const validateClient = (
  provider: SupportedProvider,
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

/**
 * The configuration read from the environment (the examples' convention): a provider is
 * configured when `<PROVIDER>_CLIENT_ID` is set; then `<PROVIDER>_CLIENT_SECRET` (optional for
 * `twitter` and `microsoft`), `<PROVIDER>_REDIRECT_URI` or else the shared
 * `OAUTH_REDIRECT_URI` (`{provider}` replaced by the name), `MICROSOFT_TENANT`, and
 * `OAUTH_TIMEOUT` (e.g. `10 seconds`).
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
  timeout: Config.option(Config.duration("OAUTH_TIMEOUT")),
}).pipe(
  Config.mapOrFail(({ ids, secrets, redirects, shared, tenant, timeout }) => {
    const providers: Record<string, unknown> = {};
    for (const provider of supportedProviders) {
      const clientId = ids[provider];
      if (Option.isNone(clientId)) continue;
      const secret = secrets[provider];
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
      };
    }
    const config: OAuthConfig = {
      providers: providers as OAuthProvidersConfig,
      ...(Option.isSome(timeout) ? { timeout: timeout.value } : {}),
    };
    return Either.right(config);
  }),
);
