// Which providers the app signs in with, as a Layer: those configured in the environment
// (`<PROVIDER>_CLIENT_ID` ...) go to the real provider; every other one signs in at the
// development identity provider (effect-strata/devidp), started on a loopback port when the
// Layer is built and stopped when it is released. So the example runs without credentials,
// as `npm start` does.
import { randomBytes } from "node:crypto";
import * as Config from "effect/Config";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import * as DevIdp from "effect-strata/devidp";
import {
  configuredProviders,
  type OAuthConfig,
  type OAuthProvidersConfig,
  oauthConfigFromEnv,
  type SupportedProvider,
  supportedProviders,
} from "effect-strata/oauth";

/** The providers the app signs in with. */
export interface ProvidersService {
  /** The OAuth configuration: the environment's providers and the development ones. */
  readonly config: OAuthConfig;
  /** The providers signing in at the development identity provider. */
  readonly development: ReadonlyArray<SupportedProvider>;
  /** The development identity provider's base URL, when some provider signs in there. */
  readonly idpUrl: Option.Option<string>;
}

/** A development client: a random secret, registered with the app's callback URL. */
const devClient = (redirectUri: string): DevIdp.DevClient => ({
  clientId: "strata-effect-example",
  clientSecret: Redacted.make(randomBytes(24).toString("base64url")),
  redirectUri,
});

/**
 * The configuration of `clients`' providers, each pointed at `idp` through its endpoint
 * overrides (microsoft through its login host).
 */
const atDevIdp = (
  idp: DevIdp.DevIdentityProviderService,
  clients: DevIdp.DevClients,
): OAuthProvidersConfig => {
  const providers: Record<string, unknown> = {};
  for (const [name, client] of Object.entries(clients) as Array<
    [SupportedProvider, DevIdp.DevClient]
  >) {
    const { authorization, token, revocation, api, loginHost } = idp.endpoints(name);
    const credentials = {
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      redirectUri: client.redirectUri,
    };
    providers[name] =
      name === "microsoft"
        ? { ...credentials, loginHost, endpoints: { api } }
        : { ...credentials, endpoints: { authorization, token, api, revocation } };
  }
  return providers as OAuthProvidersConfig;
};

/** The providers the app signs in with: real ones from the environment, development ones for the rest. */
export class Providers extends Context.Tag("examples/effect-social-login/Providers")<
  Providers,
  ProvidersService
>() {
  /**
   * Reads the environment (`oauthConfigFromEnv`) and starts the development identity provider
   * for every provider it leaves unconfigured: a client each, whose callback is
   * `OAUTH_REDIRECT_URI` (`{provider}` replaced) or `http://localhost:<port>/auth/{provider}/callback`.
   * Fails when the environment is half configured, or with the development identity
   * provider's error when `NODE_ENV=production` leaves a provider unconfigured.
   */
  static readonly layer = (port: number) =>
    Layer.scoped(
      Providers,
      Effect.gen(function* () {
        const fromEnv = yield* oauthConfigFromEnv;
        const configured = new Set(configuredProviders(fromEnv.providers));
        const development = supportedProviders.filter((name) => !configured.has(name));
        if (development.length === 0) {
          return { config: fromEnv, development, idpUrl: Option.none() };
        }
        const callback = yield* Config.nonEmptyString("OAUTH_REDIRECT_URI").pipe(
          Config.withDefault(`http://localhost:${port}/auth/{provider}/callback`),
        );
        const clients: DevIdp.DevClients = Object.fromEntries(
          development.map((name) => [name, devClient(callback.replaceAll("{provider}", name))]),
        );
        const idp = yield* DevIdp.make({ clients });
        return {
          config: { ...fromEnv, providers: { ...fromEnv.providers, ...atDevIdp(idp, clients) } },
          development,
          idpUrl: Option.some(idp.url),
        };
      }),
    );
}
