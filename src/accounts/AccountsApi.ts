/**
 * The accounts service's interface: what `Accounts` offers, over user records that each have an
 * id.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect";
import type * as Option from "effect/Option";
import type * as Redacted from "effect/Redacted";
import type { OAuthTokens, OAuthUser } from "../oauth/OAuthResult.js";
import type { AccountStoreError } from "./AccountStore.js";
import type {
  AccountConflict,
  AccountNotLinked,
  InvalidProfile,
  LastAccount,
  ProviderTokenUnavailable,
  UserNotFound,
} from "./AccountsError.js";

/**
 * What every app user record has: its id, a string (the id sessions are kept by, see
 * `SessionOptions.userId`).
 *
 * @since 0.1.0
 * @category accounts
 */
export interface AppUser {
  readonly id: string;
}

/**
 * One provider account linked to a user, as listed (tokens are never listed).
 *
 * @since 0.1.0
 * @category accounts
 */
export interface LinkedAccount {
  readonly provider: string;
  /** The provider's id of the user. */
  readonly subject: string;
  /** The email the provider gave at the last sign-in. */
  readonly email?: string;
  /** `true` when the provider marked that email verified. */
  readonly emailVerified: boolean;
  readonly linkedAt: Date;
  /** `true` when provider tokens are kept for it. */
  readonly hasTokens: boolean;
}

/**
 * The accounts of an app whose user records are `A`. Nothing here needs a request: give it the
 * user id your session holds.
 *
 * @since 0.1.0
 * @category accounts
 */
export interface AccountsApi<A extends AppUser> {
  /**
   * The user signing in with `provider`'s `profile`: the user linked to `(provider,
   * profile.id)`; else, with `linkByVerifiedEmail`, the one user with an account whose verified
   * email is the profile's verified email (linked to it now); else a new user (`createUser`).
   * With the `tokens` option, `tokens` are kept (sealed) with the account.
   *
   * Concurrent first sign-ins of one account make one user: the others get that user.
   */
  signIn(
    provider: string,
    profile: OAuthUser,
    tokens?: OAuthTokens,
  ): Effect.Effect<A, InvalidProfile | AccountConflict | AccountStoreError>;
  /**
   * Links `provider`'s account `profile` to the (signed-in) user `userId`: no email check, the
   * user proved both sides by signing in. Linking an account the user already has updates it.
   */
  link(
    userId: string,
    provider: string,
    profile: OAuthUser,
    tokens?: OAuthTokens,
  ): Effect.Effect<
    LinkedAccount,
    InvalidProfile | UserNotFound | AccountConflict | AccountStoreError
  >;
  /** The user's linked accounts, oldest first (none for an unknown user). */
  accounts(userId: string): Effect.Effect<ReadonlyArray<LinkedAccount>, AccountStoreError>;
  /** Unlinks the user's account of `provider`; never the last one. */
  unlink(
    userId: string,
    provider: string,
  ): Effect.Effect<void, AccountNotLinked | LastAccount | AccountStoreError>;
  /** The user `userId`'s record. */
  user(userId: string): Effect.Effect<Option.Option<A>, AccountStoreError>;
  /** Replaces the record of the user `user.id` (its accounts stay as they are). */
  updateUser(user: A): Effect.Effect<void, UserNotFound | AccountStoreError>;
  /**
   * A valid access token of the user's `provider` account (needs the `tokens` option),
   * refreshed with the refresh token when it expires within a minute: one refresh per account
   * at a time, concurrent callers share it. A refresh the provider refuses unlinks nothing and
   * fails with `ProviderTokenUnavailable` (`refresh-rejected`).
   */
  providerToken(
    userId: string,
    provider: string,
  ): Effect.Effect<
    Redacted.Redacted<string>,
    AccountNotLinked | ProviderTokenUnavailable | AccountStoreError
  >;
}
