/**
 * The classic face of the pipeline: an injectable service with the spec's operations. Its
 * methods are the facade boundary where Effects run.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Redacted from "effect/Redacted";
import { randomToken } from "../crypto/SecureRandom.js";
import { runPromiseExitOnCaller, runSyncExitOnCaller } from "../pipeline/internal/callerFiber.js";
import { nonceHash } from "./OAuthAuthorization.js";
import { InvalidState, isOAuthError, OAuthHttpError } from "./OAuthError.js";
import { type OAuthCallbackResult, toCallbackResult } from "./OAuthResult.js";
import type { OAuthRuntime } from "./OAuthRuntime.js";
import { validateState } from "./StateCheck.js";
import type { ProviderName } from "./SupportedProvider.js";

/**
 * What `getAuthorizationUrl` returns. Store `state`, `codeVerifier` and `nonce` (httpOnly,
 * SameSite cookies recommended: `flowCookie`) and send the browser to `url`.
 *
 * @since 0.1.0
 * @category classic
 */
export interface AuthorizationResult {
  readonly url: string;
  /**
   * The state sent in `url`: ends with `~<provider>`, which binds it to the provider
   * (`handleCallback` refuses it for another one).
   */
  readonly state: string;
  /** The PKCE verifier: present for google, microsoft, twitter and OpenID Connect providers. */
  readonly codeVerifier?: string;
  /**
   * The OpenID Connect nonce (google, microsoft, OpenID Connect providers): `url` carries its
   * SHA-256, and `handleCallback` given it checks the ID token's against it.
   */
  readonly nonce?: string;
}

/** Separates a state from the provider it is bound to (in neither a token nor a name). */
const PROVIDER_SEPARATOR = "~";

/** `true` when `state` was made for `provider` by {@link OAuthService.getAuthorizationUrl}. */
const boundTo = (state: string, provider: string): boolean => {
  const at = state.lastIndexOf(PROVIDER_SEPARATOR);
  return at >= 0 && state.slice(at + 1) === provider;
};

/**
 * Refreshed provider tokens.
 *
 * @since 0.1.0
 * @category classic
 */
export interface RefreshedTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  readonly expiresAt?: Date;
}

/** The value of an exit, or the failure thrown: OAuth failures as {@link OAuthHttpError}s. */
const unwrap = <A>(exit: Exit.Exit<A, unknown>): A => {
  if (Exit.isSuccess(exit)) return exit.value;
  const failure = Cause.failureOption(exit.cause);
  if (failure._tag === "Some" && isOAuthError(failure.value)) {
    throw new OAuthHttpError(failure.value);
  }
  throw Cause.squash(exit.cause);
};

/**
 * OAuth 2.0 social login for the classic face (exported by `OAuthModule.forRoot`). Failures
 * are thrown as {@link OAuthHttpError}s: an `HttpError` with the status the built-in routes
 * use (404 unknown provider, 401 invalid state or rejected code, 502/504 provider trouble).
 * Called from a request (before the caller's first `await`), the work runs on a child of the
 * request's fiber: its span, log annotations and fiber refs, and interrupted with it.
 *
 * @since 0.1.0
 * @category classic
 */
export class OAuthService {
  constructor(private readonly runtime: OAuthRuntime) {}

  /** The configured providers. */
  get providers(): ReadonlyArray<ProviderName> {
    return this.runtime.oauth.providers;
  }

  /**
   * Builds the authorization URL of `provider` with a fresh state (256 bits from the CSPRNG,
   * or the caller's `state`) bound to the provider (`<state>~<provider>`), a PKCE verifier
   * and a nonce where the provider takes them, and `scopes` (default: the provider's default
   * scopes).
   */
  getAuthorizationUrl(
    provider: ProviderName,
    state?: string,
    scopes?: ReadonlyArray<string>,
  ): AuthorizationResult {
    const oauth = this.runtime.oauth;
    const authorization = unwrap(
      runSyncExitOnCaller(
        Effect.flatMap(
          state === undefined || state === "" ? randomToken(32) : Effect.succeed(state),
          (unbound) =>
            oauth.authorize(provider, {
              state: `${unbound}${PROVIDER_SEPARATOR}${provider}`,
              ...(scopes === undefined ? {} : { scopes }),
            }),
        ),
      ),
    );
    const { url, codeVerifier, transaction } = authorization;
    return {
      url,
      state: authorization.state,
      ...(codeVerifier === undefined ? {} : { codeVerifier }),
      ...(transaction.nonce === undefined ? {} : { nonce: transaction.nonce }),
    };
  }

  /**
   * Exchanges `code` for tokens and fetches the profile. Check `state` against the stored one
   * with {@link OAuthService.validateState} first; here it must be a state
   * `getAuthorizationUrl` made for this `provider` (401 `Invalid state` otherwise). PKCE
   * providers need the stored `codeVerifier`; given the stored `nonce`, the ID token must
   * carry it.
   */
  async handleCallback(
    provider: ProviderName,
    code: string,
    state: string,
    codeVerifier?: string,
    nonce?: string,
  ): Promise<OAuthCallbackResult> {
    const name = String(provider);
    const run =
      typeof state !== "string" || state === ""
        ? Effect.fail(new InvalidState({ provider: name, reason: "missing_state" }))
        : !boundTo(state, name)
          ? Effect.fail(new InvalidState({ provider: name, reason: "wrong_provider" }))
          : this.runtime.oauth.exchange(provider, {
              code,
              ...(codeVerifier === undefined ? {} : { codeVerifier }),
              ...(nonce === undefined ? {} : { nonce: nonceHash(nonce) }),
            });
    return toCallbackResult(unwrap(await runPromiseExitOnCaller(run)));
  }

  /** `true` when the received state equals the stored one (constant-time; see `validateState`). */
  validateState(received: unknown, stored: unknown): boolean {
    return validateState(received, stored);
  }

  /**
   * Runs the configured callback handler on `result` and returns its value (the result
   * itself when no handler is configured).
   */
  async executeCallback(result: OAuthCallbackResult, provider: ProviderName): Promise<unknown> {
    const handler = this.runtime.handler;
    if (this.runtime.options.callbackHandler === undefined) return result;
    if (handler === undefined) {
      throw new Error(
        "OAuthService.executeCallback: the callback handler is bound when the app's routes are built: call app.init() (or init() on a testing module) first",
      );
    }
    return unwrap(await runPromiseExitOnCaller(handler((h) => h.handle(result, provider))));
  }

  /** Refreshes an access token (google, microsoft, github apps, twitter). */
  async refreshToken(
    provider: ProviderName,
    refreshToken: string,
    scopes?: ReadonlyArray<string>,
  ): Promise<RefreshedTokens> {
    const tokens = unwrap(
      await runPromiseExitOnCaller(
        this.runtime.oauth.refresh(provider, Redacted.make(refreshToken), scopes),
      ),
    );
    return {
      accessToken: Redacted.value(tokens.accessToken),
      ...(tokens.refreshToken === undefined
        ? {}
        : { refreshToken: Redacted.value(tokens.refreshToken) }),
      ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }),
    };
  }

  /** Revokes a token (google, twitter). */
  async revokeToken(provider: ProviderName, token: string): Promise<void> {
    unwrap(await runPromiseExitOnCaller(this.runtime.oauth.revoke(provider, Redacted.make(token))));
  }
}
