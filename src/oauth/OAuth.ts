/**
 * The OAuth pipeline as a service: `authorize` (state, PKCE verifier, nonce, URL, transaction)
 * -> `callback` (check the transaction, exchange the code, fetch the profile). Each step fails
 * with its own tagged error; the built-in routes and the classic `OAuthService` are thin
 * layers over it.
 *
 * @since 0.1.0
 */
import { hash } from "node:crypto";
import type * as HttpClient from "@effect/platform/HttpClient";
import * as Clock from "effect/Clock";
import type * as ConfigError from "effect/ConfigError";
import * as Context from "effect/Context";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import type * as Redacted from "effect/Redacted";
import type * as Types from "effect/Types";
import { SecureRandom, tokensOf } from "../crypto/SecureRandom.js";
import { type AuthorizationUrls, authorizationUrls } from "./AuthorizationUrlTemplate.js";
import { fromEnv, type OAuthConfig } from "./OAuthConfig.js";
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
import type {
  AuthorizationRequest,
  CodeExchange,
  OAuthConfigError,
  OAuthProviderService,
} from "./OAuthProvider.js";
import { OAuthProviders } from "./OAuthProviders.js";
import type { OAuthSignIn, OAuthTokens } from "./OAuthResult.js";
import {
  type OAuthTransaction,
  TRANSACTION_TTL,
  type TransactionIntent,
  type TransactionRedirects,
} from "./OAuthTransaction.js";
import { type CallbackParams, checkCallbackState, validateState } from "./StateCheck.js";
import type { ProviderName } from "./SupportedProvider.js";

/** Random bytes in each state, PKCE verifier and nonce drawn (256 bits). */
const TOKEN_BYTES = 32;

/**
 * Options of {@link OAuthPipeline.authorize}.
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface AuthorizeOptions {
  /** A caller-chosen state; by default 32 bytes from the CSPRNG (256 bits). */
  readonly state?: string;
  /** The full scope list, replacing the provider's defaults. */
  readonly scopes?: ReadonlyArray<string>;
  /** Ask for a refresh token (see `AuthorizationRequest.offline`). */
  readonly offline?: boolean;
  /** Validated redirects to keep in the transaction. */
  readonly redirects?: TransactionRedirects;
  /** What the authorization is for, kept in the transaction (absent: a sign-in). */
  readonly intent?: TransactionIntent;
  /** With the `link` intent: who started it (see `OAuthTransaction.linkOwner`), kept in the transaction. */
  readonly linkOwner?: string;
}

/**
 * A started authorization: where to send the browser, and the transaction to keep.
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface Authorization {
  readonly provider: ProviderName;
  /** The provider's authorization URL (it carries the state, never the verifier or nonce). */
  readonly url: string;
  readonly state: string;
  /** The PKCE verifier, for PKCE providers only. */
  readonly codeVerifier?: string;
  /** Everything the callback needs, to keep server-side or in the sealed cookie. */
  readonly transaction: OAuthTransaction;
}

/** Every failure of {@link OAuthPipeline.callback}. @since 0.1.0 @category pipeline */
export type CallbackError =
  | UnknownProvider
  | InvalidState
  | ProviderErrorResponse
  | CodeRejected
  | TokenError
  | ProfileError;

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
 * The hash sent as the OpenID `nonce` parameter: the transaction keeps the raw nonce, the URL
 * and the ID token carry only its SHA-256 (base64url), so the raw value never travels in a URL.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const nonceHash = (nonce: string): string => hash("sha256", nonce, "base64url");

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

  const ttl = Duration.toMillis(TRANSACTION_TTL);
  const urls = new Map<OAuthProviderService, AuthorizationUrls>();
  const urlsOf = (p: OAuthProviderService) => {
    let of = urls.get(p);
    if (of === undefined) {
      of = authorizationUrls(p);
      urls.set(p, of);
    }
    return of;
  };

  /** The started authorization, its transaction expiring at `expiry`. */
  const started = (
    p: OAuthProviderService,
    url: string,
    state: string,
    codeVerifier: string | undefined,
    nonce: string | undefined,
    redirects: TransactionRedirects,
    expiry: number,
    intent: TransactionIntent | undefined,
    linkOwner: string | undefined,
  ): Authorization => {
    const transaction: Types.Mutable<OAuthTransaction> = {
      provider: p.name,
      state,
      redirects,
      expiry,
    };
    const authorization: Types.Mutable<Authorization> = {
      provider: p.name,
      url,
      state,
      transaction,
    };
    if (codeVerifier !== undefined) {
      transaction.codeVerifier = codeVerifier;
      authorization.codeVerifier = codeVerifier;
    }
    if (nonce !== undefined) transaction.nonce = nonce;
    if (intent !== undefined) transaction.intent = intent;
    if (linkOwner !== undefined) transaction.linkOwner = linkOwner;
    return authorization;
  };

  // Untraced, and in as few steps as it takes: it only computes, and a span (with the call-site
  // capture of `Effect.fn`) would cost as much as the whole authorization. The tokens it needs
  // (state, PKCE verifier, nonce) come from one draw; with the URL's template known, the rest
  // is one step (the clock's).
  const authorize = (
    name: string,
    options: AuthorizeOptions = {},
  ): Effect.Effect<Authorization, UnknownProvider> => {
    const found = registry.get(name);
    if (Option.isNone(found)) return Effect.fail(new UnknownProvider());
    const p = found.value;
    const given = options.state !== undefined && options.state !== "" ? options.state : undefined;
    const count = (given === undefined ? 1 : 0) + (p.pkce ? 1 : 0) + (p.oidc ? 1 : 0);
    return Effect.flatMap(SecureRandom, (random) =>
      Effect.flatMap(random.bytes(count * TOKEN_BYTES), (bytes) => {
        const tokens = tokensOf(bytes, count, TOKEN_BYTES);
        let drawn = 0;
        const state = given ?? tokens[drawn++];
        const codeVerifier = p.pkce ? tokens[drawn++] : undefined;
        const nonce = p.oidc ? tokens[drawn++] : undefined;
        const request: Types.Mutable<AuthorizationRequest> = {
          state,
          scopes: options.scopes ?? p.defaultScopes,
        };
        if (codeVerifier !== undefined) request.codeVerifier = codeVerifier;
        if (nonce !== undefined) request.nonce = nonceHash(nonce);
        if (options.offline !== undefined) request.offline = options.offline;
        const redirects = options.redirects ?? {};
        const finish = (url: string) =>
          Clock.clockWith((clock) =>
            Effect.succeed(
              started(
                p,
                url,
                state,
                codeVerifier,
                nonce,
                redirects,
                clock.unsafeCurrentTimeMillis() + ttl,
                options.intent,
                options.linkOwner,
              ),
            ),
          );
        const of = urlsOf(p);
        const known = of.known(request);
        return known === undefined ? Effect.flatMap(of.url(request), finish) : finish(known);
      }),
    );
  };

  const session = (p: OAuthProviderService, exchange: CodeExchange) =>
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
    return yield* session(p, input);
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
    return yield* session(p, {
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
   * `<PROVIDER>_CLIENT_SECRET`, `OAUTH_REDIRECT_URI`, ...; see `OAuthConfig.fromEnv`).
   */
  static readonly layerConfig: Layer.Layer<
    OAuth,
    ConfigError.ConfigError | OAuthConfigError,
    HttpClient.HttpClient
  > = Layer.unwrapEffect(Effect.map(fromEnv, OAuth.layer));
}
