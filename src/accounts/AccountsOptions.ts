/**
 * How `Accounts` behaves, on either face: how a new user's record is made, whether a verified
 * email links accounts, and whether provider tokens are kept.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect";
import type * as Redacted from "effect/Redacted";
import type { TokenError } from "../oauth/OAuthError.js";
import type { OAuthTokens, OAuthUser } from "../oauth/OAuthResult.js";

/**
 * What `createUser` is told about the user to create.
 *
 * @since 0.1.0
 * @category options
 */
export interface NewUserContext {
  /**
   * A fresh id for the user (128 random bits, base64url): give it as the record's `id`, or give
   * an id of your own (it must not be taken).
   */
  readonly id: string;
  /** The provider the user signed in with. */
  readonly provider: string;
}

/**
 * A provider's refresh: new tokens for `refreshToken`. A refresh token the provider refuses
 * fails with `CodeRejected`; any other `TokenError` is the provider's trouble.
 *
 * @since 0.1.0
 * @category options
 */
export type RefreshProviderToken = (
  provider: string,
  refreshToken: Redacted.Redacted<string>,
  scopes: ReadonlyArray<string> | undefined,
) => Effect.Effect<OAuthTokens, TokenError>;

/**
 * Keeping provider tokens (server-side only, never in a cookie).
 *
 * @since 0.1.0
 * @category options
 */
export interface ProviderTokenOptions {
  /**
   * The key tokens are sealed with at rest (AES-256-GCM, a key derived for this purpose only),
   * at least 32 characters; from config, kept `Redacted`. Changing it makes the stored tokens
   * unreadable (the users then sign in with the provider again).
   */
  readonly secret: string | Redacted.Redacted<string>;
  /**
   * How an expired access token is refreshed. By default, through the `OAuthProviders` in
   * context when the layer is built (the providers' own `refreshToken`); without them, an
   * expired token is `ProviderTokenUnavailable` (`expired`).
   */
  readonly refresh?: RefreshProviderToken;
}

/**
 * Options of `Accounts`, on either face.
 *
 * @since 0.1.0
 * @category options
 */
export interface AccountsOptions<A> {
  /**
   * The app's record of a user signing in for the first time, from the provider's profile:
   * an `A` or an Effect of one. Its `id` is the user's id (see {@link NewUserContext.id}).
   */
  readonly createUser: (profile: OAuthUser, context: NewUserContext) => A | Effect.Effect<A>;
  /**
   * Link a first sign-in with a new provider to the existing user who has an account with the
   * same email, when both providers marked that email verified (default `false`: a new
   * provider account is a new user). An unverified email never links (SECURITY.md 31).
   */
  readonly linkByVerifiedEmail?: boolean;
  /** Keep the provider tokens of each sign-in, for `providerToken` (default: not kept). */
  readonly tokens?: ProviderTokenOptions;
}
