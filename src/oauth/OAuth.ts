/**
 * The OAuth pipeline as a service: `authorize` (state, PKCE verifier, nonce, URL, transaction)
 * -> `callback` (check the transaction, exchange the code, fetch the profile). Each step fails
 * with its own tagged error; the built-in routes and the classic `OAuthService` are thin
 * layers over it.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient";
import * as Clock from "effect/Clock";
import type * as ConfigError from "effect/ConfigError";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import type * as Redacted from "effect/Redacted";
import {
  type Authorization,
  type AuthorizeOptions,
  makeAuthorize,
  nonceHash,
} from "./OAuthAuthorization.js";
import type { OAuthConfig } from "./OAuthConfig.js";
import { fromEnv } from "./OAuthConfigFromEnv.js";
import {
  CodeRejected,
  InvalidState,
  type ProfileError,
  ProviderErrorResponse,
  type TokenError,
  toOAuthErrorCode,
  UnknownProvider,
  UnsupportedOperation,
} from "./OAuthError.js";
import type { CodeExchange, OAuthConfigError, OAuthProviderService } from "./OAuthProvider.js";
import { OAuthProviders } from "./OAuthProviders.js";
import type { OAuthSignIn, OAuthTokens } from "./OAuthResult.js";
import { type OAuthTransaction } from "./OAuthTransaction.js";
import { type CallbackParams, checkCallbackState, validateState } from "./StateCheck.js";
import type { ProviderName } from "./SupportedProvider.js";

/** Every failure of {@link OAuthPipeline.callback}. @since 0.1.0 @category pipeline */
export type CallbackError =
  | UnknownProvider
  | InvalidState
  | ProviderErrorResponse
  | CodeRejected
  | TokenError
  | ProfileError;

export {
  type Authorization,
  type AuthorizeOptions,
  nonceHash,
} from "./OAuthAuthorization.js";

/**
 * The OAuth pipeline.
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface OAuthPipeline {
  /** The configured providers. */
  readonly providers: ReadonlyArray<ProviderName>;
  /** The provider called `name`, or {@link UnknownProvider}. */
  readonly provider: (name: string) => Effect.Effect<OAuthProviderService, UnknownProvider>;
  /** Starts an authorization: fresh state, PKCE verifier and nonce, URL and transaction. */
  readonly authorize: (
    provider: string,
    options?: AuthorizeOptions,
  ) => Effect.Effect<Authorization, UnknownProvider>;
  /**
   * Completes an authorization from the callback's query and its transaction: the state is
   * checked first (SECURITY.md 2-7), then a provider `error=`, then the code is exchanged and
   * the profile fetched.
   */
  readonly callback: (
    provider: string,
    params: CallbackParams,
    transaction: Option.Option<OAuthTransaction>,
  ) => Effect.Effect<OAuthSignIn, CallbackError>;
  /**
   * Exchanges a code (the caller checked the state) and fetches the profile. PKCE providers
   * need the verifier: without it, {@link InvalidState}.
   */
  readonly exchange: (
    provider: string,
    exchange: CodeExchange,
  ) => Effect.Effect<OAuthSignIn, UnknownProvider | InvalidState | TokenError | ProfileError>;
  /** Refreshes an access token where the provider supports it. */
  readonly refresh: (
    provider: string,
    refreshToken: Redacted.Redacted<string>,
    scopes?: ReadonlyArray<string>,
  ) => Effect.Effect<OAuthTokens, UnknownProvider | UnsupportedOperation | TokenError>;
  /** Revokes a token where the provider supports it. */
  readonly revoke: (
    provider: string,
    token: Redacted.Redacted<string>,
  ) => Effect.Effect<void, UnknownProvider | UnsupportedOperation | TokenError>;
  /** Constant-time state comparison (see `validateState`). */
  readonly validateState: (received: unknown, stored: unknown) => boolean;
}

/**
 * Builds the pipeline over the {@link OAuthProviders} in context.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const make: Effect.Effect<OAuthPipeline, never, OAuthProviders> = Effect.gen(function* () {
  const registry = yield* OAuthProviders;

  const provider = (name: string) =>
    Option.match(registry.get(name), {
      onNone: () => Effect.fail(new UnknownProvider()),
      onSome: Effect.succeed,
    });

  const authorize = makeAuthorize(registry);

  /** The sign-in of a code: its tokens, then the profile. */
  const signInWith = (p: OAuthProviderService, exchange: CodeExchange) =>
    Effect.gen(function* () {
      if (p.pkce && (exchange.codeVerifier === undefined || exchange.codeVerifier === "")) {
        return yield* new InvalidState({ provider: p.name, reason: "missing_verifier" });
      }
      const tokens = yield* p.exchangeCode(exchange);
      const user = yield* p.fetchProfile(tokens.accessToken, tokens);
      return { provider: p.name, tokens, user } satisfies OAuthSignIn;
    });

  const exchange = Effect.fn("OAuth.exchange")(function* (name: string, input: CodeExchange) {
    const p = yield* provider(name);
    return yield* signInWith(p, input);
  });

  const callback = Effect.fn("OAuth.callback")(function* (
    name: string,
    params: CallbackParams,
    transaction: Option.Option<OAuthTransaction>,
  ) {
    const p = yield* provider(name);
    const now = yield* Clock.currentTimeMillis;
    const tx = yield* checkCallbackState(p, params, transaction, now);
    // Only now, with the state checked (SECURITY.md 15), is a provider error looked at.
    if (params.error !== undefined) {
      return yield* new ProviderErrorResponse({
        provider: p.name,
        oauthError: toOAuthErrorCode(params.error),
      });
    }
    if (typeof params.code !== "string" || params.code === "") {
      return yield* new CodeRejected({ provider: p.name, oauthError: "invalid_request" });
    }
    return yield* signInWith(p, {
      code: params.code,
      ...(tx.codeVerifier === undefined ? {} : { codeVerifier: tx.codeVerifier }),
      ...(tx.nonce === undefined ? {} : { nonce: nonceHash(tx.nonce) }),
    });
  });

  const refresh = Effect.fn("OAuth.refresh")(function* (
    name: string,
    refreshToken: Redacted.Redacted<string>,
    scopes?: ReadonlyArray<string>,
  ) {
    const p = yield* provider(name);
    if (p.refreshToken === undefined) {
      return yield* new UnsupportedOperation({ provider: p.name, operation: "refresh" });
    }
    return yield* p.refreshToken(refreshToken, scopes);
  });

  const revoke = Effect.fn("OAuth.revoke")(function* (
    name: string,
    token: Redacted.Redacted<string>,
  ) {
    const p = yield* provider(name);
    if (p.revokeToken === undefined) {
      return yield* new UnsupportedOperation({ provider: p.name, operation: "revoke" });
    }
    return yield* p.revokeToken(token);
  });

  return {
    providers: registry.names,
    provider,
    authorize,
    callback,
    exchange,
    refresh,
    revoke,
    validateState,
  } satisfies OAuthPipeline;
});

/**
 * The OAuth pipeline.
 *
 * @example
 * import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
 * import { Layer, Redacted } from "effect";
 * import { OAuth } from "effect-strata/oauth";
 *
 * const OAuthLive = OAuth.layer({
 *   providers: {
 *     github: {
 *       clientId: process.env.GITHUB_CLIENT_ID ?? "",
 *       clientSecret: Redacted.make(process.env.GITHUB_CLIENT_SECRET ?? ""),
 *       redirectUri: "https://app.example/auth/github/callback",
 *     },
 *   },
 * }).pipe(Layer.provide(FetchHttpClient.layer));
 *
 * @since 0.1.0
 * @category pipeline
 */
export class OAuth extends Context.Tag("effect-strata/oauth/OAuth")<OAuth, OAuthPipeline>() {
  /** The pipeline over the providers in context (mocked providers in tests). */
  static readonly layerFromProviders: Layer.Layer<OAuth, never, OAuthProviders> = Layer.effect(
    OAuth,
    make,
  );

  /** The pipeline over the live providers of `config`; profiles use the `HttpClient` in context. */
  static readonly layer = (
    config: OAuthConfig,
  ): Layer.Layer<OAuth, OAuthConfigError, HttpClient.HttpClient> =>
    Layer.provide(OAuth.layerFromProviders, OAuthProviders.layer(config));

  /**
   * The pipeline configured from the environment (`<PROVIDER>_CLIENT_ID`,
   * `<PROVIDER>_CLIENT_SECRET`, `OAUTH_REDIRECT_URI`, ...; see `oauthConfigFromEnv`).
   */
  static readonly layerConfig: Layer.Layer<
    OAuth,
    ConfigError.ConfigError | OAuthConfigError,
    HttpClient.HttpClient
  > = Layer.unwrapEffect(Effect.map(fromEnv, OAuth.layer));
}
