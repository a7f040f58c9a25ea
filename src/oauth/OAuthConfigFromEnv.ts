/**
 * The OAuth configuration read from environment variables with Effect `Config` (the examples'
 * convention: `<PROVIDER>_CLIENT_ID`, `<PROVIDER>_CLIENT_SECRET`, `OAUTH_REDIRECT_URI`, ...).
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config";
import * as ConfigError from "effect/ConfigError";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import type { OAuthConfig, OAuthProvidersConfig } from "./OAuthConfig.js";
import type { ProviderEndpoints } from "./ProviderEndpoints.js";
import { type SupportedProvider, supportedProviders } from "./SupportedProvider.js";

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
