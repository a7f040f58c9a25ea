// Which providers the demo signs in with: those configured in the environment go to the real
// provider; every other one goes to the development identity provider.
import { randomBytes } from "node:crypto";
import {
  type DevClients,
  type RunningDevIdentityProvider,
  startDevIdentityProvider,
} from "effect-strata/devidp";
import {
  type OAuthProvidersConfig,
  type SupportedProvider,
  supportedProviders,
} from "effect-strata/oauth";

/** The callback URL of `provider`: `OAUTH_REDIRECT_URI` (`{provider}` replaced) or localhost. */
export const redirectUriFor = (env: NodeJS.ProcessEnv, provider: SupportedProvider): string =>
  (
    env.OAUTH_REDIRECT_URI ?? `http://localhost:${env.PORT ?? 3000}/auth/{provider}/callback`
  ).replaceAll("{provider}", provider);

/** Providers whose secret may be left out (public clients with PKCE). */
const secretOptional: ReadonlySet<SupportedProvider> = new Set(["microsoft", "twitter"]);

/**
 * A provider half configured in the environment (an id without its secret, or the reverse):
 * the demo refuses to start rather than silently use the development identity provider.
 */
export class DemoConfigError extends Error {
  override readonly name = "DemoConfigError";
}

/** A variable of `env`, empty counting as unset. */
const variable = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const value = env[name];
  return value === undefined || value === "" ? undefined : value;
};

/**
 * The providers configured in `env`: `<PROVIDER>_CLIENT_ID` and `<PROVIDER>_CLIENT_SECRET`
 * (optional for microsoft and twitter), `OAUTH_REDIRECT_URI`, `MICROSOFT_TENANT`. Throws a
 * {@link DemoConfigError} naming the missing variable when only one half of a pair is set.
 */
export const providersFromEnv = (env: NodeJS.ProcessEnv = process.env): OAuthProvidersConfig => {
  const providers: Record<string, unknown> = {};
  for (const provider of supportedProviders) {
    const prefix = provider.toUpperCase();
    const clientId = variable(env, `${prefix}_CLIENT_ID`);
    const clientSecret = variable(env, `${prefix}_CLIENT_SECRET`);
    if (clientId === undefined && clientSecret !== undefined) {
      throw new DemoConfigError(`${prefix}_CLIENT_SECRET is set but ${prefix}_CLIENT_ID is not`);
    }
    if (clientId === undefined) continue;
    if (clientSecret === undefined && !secretOptional.has(provider)) {
      throw new DemoConfigError(`${prefix}_CLIENT_ID is set but ${prefix}_CLIENT_SECRET is not`);
    }
    providers[provider] = {
      clientId,
      clientSecret: clientSecret ?? null,
      redirectUri: redirectUriFor(env, provider),
      ...(provider === "microsoft" && env.MICROSOFT_TENANT !== undefined
        ? { tenant: env.MICROSOFT_TENANT }
        : {}),
    };
  }
  return providers as OAuthProvidersConfig;
};

/** The providers `env` leaves to the development identity provider. */
export const unconfigured = (providers: OAuthProvidersConfig): ReadonlyArray<SupportedProvider> =>
  supportedProviders.filter((name) => providers[name] === undefined);

/** A development client (random secret) per provider, with this app's callback URLs. */
export const devClients = (
  names: ReadonlyArray<SupportedProvider>,
  env: NodeJS.ProcessEnv,
): DevClients =>
  Object.fromEntries(
    names.map((name) => [
      name,
      {
        clientId: `strata-demo-${name}`,
        clientSecret: randomBytes(24).toString("base64url"),
        redirectUri: redirectUriFor(env, name),
      },
    ]),
  );

/**
 * The configuration of the providers in `clients`, signing in at `idp` through each
 * provider's endpoint overrides (microsoft through its `loginHost`).
 */
export const devProviders = (
  idp: Pick<RunningDevIdentityProvider, "endpoints">,
  clients: DevClients,
): OAuthProvidersConfig => {
  const providers: Record<string, unknown> = {};
  for (const name of supportedProviders) {
    const client = clients[name];
    if (client === undefined) continue;
    const { authorization, token, revocation, api, loginHost } = idp.endpoints(name);
    const credentials = {
      clientId: client.clientId,
      clientSecret: client.clientSecret ?? null,
      redirectUri: client.redirectUri,
    };
    providers[name] =
      name === "microsoft"
        ? { ...credentials, loginHost, endpoints: { api } }
        : {
            ...credentials,
            endpoints: {
              authorization,
              token,
              api,
              ...(revocation === undefined ? {} : { revocation }),
            },
          };
  }
  return providers as OAuthProvidersConfig;
};

/** The demo's providers: the real ones from `env`, the development identity provider for the rest. */
export interface DemoProviders {
  readonly providers: OAuthProvidersConfig;
  /** The providers signing in at the development identity provider. */
  readonly development: ReadonlyArray<SupportedProvider>;
  /** The development identity provider, when any provider uses it. */
  readonly idp?: RunningDevIdentityProvider;
}

/**
 * Reads `env` and starts the development identity provider for what it leaves unconfigured.
 * Rejects with a {@link DemoConfigError} when a provider is half configured.
 */
export const demoProviders = async (
  env: NodeJS.ProcessEnv = process.env,
): Promise<DemoProviders> => {
  const real = providersFromEnv(env);
  const development = unconfigured(real);
  if (development.length === 0) return { providers: real, development };
  const clients = devClients(development, env);
  const idp = await startDevIdentityProvider({ clients });
  return { providers: { ...real, ...devProviders(idp, clients) }, development, idp };
};
