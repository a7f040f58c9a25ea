/**
 * Mocked OAuth providers for tests of apps: a provider that signs in a given profile, or
 * fails at a chosen step, with nothing sent over the network. Only the provider's network
 * calls (token exchange, profile) are replaced: the authorization URL is the real provider's,
 * and state, PKCE, nonce, the sealed transaction cookie and every callback check run as in
 * production.
 *
 * @since 0.1.0
 */
import { hash } from "node:crypto";
import * as HttpClient from "@effect/platform/HttpClient";
import * as Clock from "effect/Clock";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import type * as Scope from "effect/Scope";
import { SecureRandom } from "../crypto/SecureRandom.js";
import { OAuth } from "../oauth/OAuth.js";
import { isOidcConfig, type OAuthConfig, type ProviderConfig } from "../oauth/OAuthConfig.js";
import {
  CodeRejected,
  ProfileFetchFailed,
  ProviderTimeout,
  ProviderUnreachable,
  type TokenError,
} from "../oauth/OAuthError.js";
import {
  OAuthConfigError,
  OAuthProvider,
  type OAuthProviderService,
} from "../oauth/OAuthProvider.js";
import type { OAuthProviderSource } from "../oauth/OAuthProviderSource.js";
import { OAuthProviders } from "../oauth/OAuthProviders.js";
import type { OAuthTokens, OAuthUser } from "../oauth/OAuthResult.js";
import {
  isCustomProviderName,
  isSupportedProvider,
  type ProviderName,
} from "../oauth/SupportedProvider.js";
import { makeSealer, TransactionSealer } from "../oauth/TransactionSealer.js";
import { TransactionStore } from "../oauth/TransactionStore.js";

/**
 * The step a mocked provider fails at: `code_rejected` (the token endpoint refuses the code:
 * 401 `code_rejected`), `timeout` (the token request times out: 504 `provider_timeout`),
 * `unreachable` (the token endpoint cannot be reached: 502 `provider_unreachable`),
 * `profile_error` (the code is exchanged, the profile cannot be read: 502
 * `profile_fetch_failed`). Each fails at once: a test needs no clock for a timeout.
 *
 * @since 0.1.0
 * @category testing
 */
export type MockFailure = "code_rejected" | "timeout" | "unreachable" | "profile_error";

/**
 * One mocked provider.
 *
 * @since 0.1.0
 * @category testing
 */
export interface MockProviderOptions {
  /** The provider's name: a built-in one (its real authorization URL) or a custom OpenID one. */
  readonly provider: ProviderName;
  /**
   * The profile every login signs in (default {@link DEFAULT_PROFILE}). Give `emailVerified`
   * with `email`, as the real providers do; it is passed on as given.
   */
  readonly profile?: OAuthUser;
  /** Fail at this step instead of signing in. */
  readonly fail?: MockFailure;
  /**
   * The redirect URI (default: the app's configured one on the classic face, else
   * `http://localhost/auth/<provider>/callback`). An https one gives the transaction cookie
   * `Secure` and the `__Host-` prefix, as in production.
   */
  readonly redirectUri?: string;
}

/**
 * The profile a mocked provider signs in when none is given: a user with a verified email.
 *
 * @since 0.1.0
 * @category testing
 */
export const DEFAULT_PROFILE: OAuthUser = {
  id: "mock-user-1",
  email: "ada@example.com",
  emailVerified: true,
  name: "Ada Lovelace",
};

/** The access token a mocked provider issues (the same on every login). @since 0.1.0 @category testing */
export const accessTokenOf = (provider: ProviderName): string => `mock-${provider}-access-token`;

/** The client the real provider code is built with: any request is a bug of the mock. */
const noNetwork = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make((request) =>
    Effect.dieMessage(
      `MockProvider sends nothing over the network (${request.method} ${request.url})`,
    ),
  ),
);

const ONE_HOUR = 3_600_000;

const tokenFailure = (provider: string, fail: MockFailure | undefined): TokenError | undefined => {
  switch (fail) {
    case "code_rejected":
      return new CodeRejected({ provider, oauthError: "invalid_grant" });
    case "timeout":
      return new ProviderTimeout({ provider, operation: "token" });
    case "unreachable":
      return new ProviderUnreachable({ provider, detail: "ECONNREFUSED" });
    default:
      return undefined;
  }
};

/** What a provider is besides its network calls. */
type ProviderShape = Omit<OAuthProviderService, "exchangeCode" | "fetchProfile">;

/** `base` with its network calls replaced by the mock's answers. */
const mocked = (base: ProviderShape, options: MockProviderOptions): OAuthProviderService => {
  const profile = options.profile ?? DEFAULT_PROFILE;
  const failure = tokenFailure(base.name, options.fail);
  const tokens: Effect.Effect<OAuthTokens, TokenError> =
    failure === undefined
      ? Effect.map(Clock.currentTimeMillis, (now) => ({
          accessToken: Redacted.make(accessTokenOf(base.name)),
          expiresAt: new Date(now + ONE_HOUR),
        }))
      : Effect.fail(failure);
  return OAuthProvider.of({
    ...base,
    exchangeCode: () => tokens,
    fetchProfile: () =>
      options.fail === "profile_error"
        ? Effect.fail(
            new ProfileFetchFailed({ provider: base.name, reason: "status", status: 500 }),
          )
        : Effect.succeed(profile),
    ...(base.refreshToken === undefined ? {} : { refreshToken: () => tokens }),
    ...(base.revokeToken === undefined ? {} : { revokeToken: () => Effect.void }),
  });
};

/** A custom OpenID Connect provider without discovery: PKCE S256, a nonce, `iss` checked. */
const customProvider = (
  name: string,
  entry: ProviderConfig | undefined,
  redirectUri: string,
): ProviderShape => {
  const oidc = entry !== undefined && isOidcConfig(entry) ? entry : undefined;
  const issuer = oidc?.issuer ?? `https://${name}.example`;
  const scopes = oidc?.scopes ?? ["openid", "profile", "email"];
  return {
    name,
    pkce: true,
    oidc: true,
    redirectUri,
    defaultScopes: scopes.includes("openid") ? scopes : ["openid", ...scopes],
    acceptsIssuer: (iss) => iss === issuer,
    authorizationUrl: (request) =>
      Effect.sync(() => {
        const url = new URL(`${issuer}/authorize`);
        url.searchParams.set("response_type", "code");
        url.searchParams.set("client_id", oidc?.clientId ?? "mock-client-id");
        url.searchParams.set("redirect_uri", redirectUri);
        url.searchParams.set("scope", request.scopes.join(" "));
        url.searchParams.set("state", request.state);
        if (request.codeVerifier !== undefined) {
          url.searchParams.set("code_challenge", hash("sha256", request.codeVerifier, "base64url"));
          url.searchParams.set("code_challenge_method", "S256");
        }
        if (request.nonce !== undefined) url.searchParams.set("nonce", request.nonce);
        return url;
      }),
  };
};

/** The real provider of `options.provider` (as `config` sets it up), network calls mocked. */
const mockService = (
  options: MockProviderOptions,
  config: OAuthConfig | undefined,
): Effect.Effect<OAuthProviderService, OAuthConfigError, Scope.Scope> =>
  Effect.gen(function* () {
    const name = options.provider;
    if (!isSupportedProvider(name) && !isCustomProviderName(name)) {
      return yield* new OAuthConfigError({
        message: `MockProvider: ${JSON.stringify(name)} is not a provider name (a built-in one, or lower-case letters, digits, - and _)`,
      });
    }
    const entry = config?.providers[name];
    const redirectUri =
      options.redirectUri ?? entry?.redirectUri ?? `http://localhost/auth/${name}/callback`;
    if (!isSupportedProvider(name))
      return mocked(customProvider(name, entry, redirectUri), options);
    const credentials: ProviderConfig = {
      ...(entry ?? { clientId: "mock-client-id", clientSecret: "mock-client-secret" }),
      redirectUri,
    };
    const built = yield* Layer.build(
      OAuthProviders.layer({ ...config, providers: { [name]: credentials } }).pipe(
        Layer.provide(noNetwork),
      ),
    );
    const base = Context.get(built, OAuthProviders).get(name);
    return Option.isSome(base)
      ? mocked(base.value, options)
      : yield* Effect.dieMessage(`MockProvider: ${name} was not built`);
  });

/** The registry of the mocked providers. */
const registry = (
  mocks: ReadonlyArray<MockProviderOptions>,
  config?: OAuthConfig,
): Layer.Layer<OAuthProviders, OAuthConfigError> =>
  Layer.scoped(
    OAuthProviders,
    Effect.map(
      Effect.forEach(mocks, (mock) => mockService(mock, config)),
      OAuthProviders.make,
    ),
  );

/** A sealed-cookie transaction store keyed by a random key. */
const cookieStore: Layer.Layer<TransactionStore> = Layer.provide(
  TransactionStore.layerCookie,
  Layer.effect(
    TransactionSealer,
    Effect.flatMap(
      Effect.flatMap(SecureRandom, (random) => random.bytes(32)),
      (key) => makeSealer(Redacted.make(key)),
    ),
  ),
);

/**
 * What the built-in routes (`OAuthRoutes.layer`) need, over mocked providers: the real
 * pipeline (`OAuth`) and a real sealed-cookie `TransactionStore` with a random key. Only the
 * listed providers are served; any other name is a 404.
 *
 * @example
 * const App = serveTest(
 *   OAuthRoutes.layer({ onSuccess: (session) => Effect.succeed({ name: session.user.name }) }),
 * ).pipe(
 *   Layer.provide(MockProvider.layer({ provider: "google", profile: { id: "1", name: "Ada" } })),
 * );
 *
 * @since 0.1.0
 * @category testing
 */
export const layer = (
  ...mocks: readonly [MockProviderOptions, ...ReadonlyArray<MockProviderOptions>]
): Layer.Layer<OAuth | TransactionStore, OAuthConfigError> =>
  Layer.merge(Layer.provide(OAuth.layerFromProviders, registry(mocks)), cookieStore);

/**
 * One mocked provider as an `OAuthProvider` Layer, to mix with live ones in
 * `OAuthProviders.fromLayers({ google: MockProvider.provider({ provider: "google" }), ... })`.
 *
 * @since 0.1.0
 * @category testing
 */
export const provider = (
  options: MockProviderOptions,
): Layer.Layer<OAuthProvider, OAuthConfigError> =>
  Layer.scoped(OAuthProvider, mockService(options, undefined));

/**
 * The classic face's equivalent: a provider source for `OAuthModule.forRoot`. The mocked
 * providers take the app's configuration (client id, redirect URI, scopes), so the redirect
 * and the cookie are the app's own; configured providers that are not mocked are not served.
 *
 * @example
 * declare class AppModule {} // imports OAuthModule.forRoot(...)
 *
 * const module = await Test.createTestingModule({ imports: [AppModule] })
 *   .overrideProvider(OAuthProviderSource)
 *   .useValue(MockProvider.source({ provider: "github", profile: { id: "1", name: "Ada" } }))
 *   .compile();
 *
 * @since 0.1.0
 * @category testing
 */
export const source = (
  ...mocks: readonly [MockProviderOptions, ...ReadonlyArray<MockProviderOptions>]
): OAuthProviderSource => ({ layer: (config) => registry(mocks, config) });
