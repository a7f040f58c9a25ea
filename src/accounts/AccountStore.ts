/**
 * Where users and their linked provider accounts live, behind one interface: in memory
 * (`MemoryAccountStore`, for tests) or in SQL through `@effect/sql` (`SqlAccountStore`: an
 * embedded SQLite file, PostgreSQL, or any `SqlClient`). An app may write its own.
 *
 * Stores keep and find records; `Accounts` decides what they mean (who is signed in, when an
 * email may link accounts, when a token is stale). Provider tokens reach a store already
 * sealed: no store ever sees one in the clear.
 *
 * Every operation that must not interleave with another (creating a user with its first
 * account, linking, unlinking, claiming a refresh) is atomic in the store, so two requests,
 * or two instances on one database, cannot leave it inconsistent.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import type * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import { CodedError } from "../http/CodedFailure.js";

/**
 * One user as a store keeps it: Strata's id and the app's record.
 *
 * @since 0.1.0
 * @category store
 */
export interface UserRecord {
  readonly id: string;
  /** The app's user record in its Schema's encoded (JSON) form. */
  readonly data: unknown;
  /** When the user was created (epoch milliseconds). */
  readonly createdAt: number;
}

/**
 * Provider tokens as a store keeps them: the tokens sealed (AES-256-GCM, bound to their
 * account), the rest in the clear.
 *
 * @since 0.1.0
 * @category store
 */
export interface StoredTokens {
  /** The sealed access token. */
  readonly accessToken: string;
  /** The sealed refresh token, when the provider gave one. */
  readonly refreshToken?: string | undefined;
  /** When the access token expires (epoch milliseconds), when the provider said. */
  readonly expiresAt?: number | undefined;
  /** The granted scopes, when the provider listed them. */
  readonly scopes?: ReadonlyArray<string> | undefined;
}

/**
 * One provider account linked to a user.
 *
 * @since 0.1.0
 * @category store
 */
export interface AccountRecord {
  /** The provider's name (`github`, `google`, a custom OpenID Connect name...). */
  readonly provider: string;
  /** The provider's stable id of the user (`OAuthUser.id`). */
  readonly subject: string;
  /** The user it is linked to. */
  readonly userId: string;
  /** The email the provider gave at the last sign-in, verified or not. */
  readonly email?: string | undefined;
  /**
   * That email trimmed and lower-cased, only when the provider marked it verified: the only
   * email that linking by email ever reads (SECURITY.md 31).
   */
  readonly verifiedEmail?: string | undefined;
  /** The sealed provider tokens, when they are kept. */
  readonly tokens?: StoredTokens | undefined;
  /** When the account was linked (epoch milliseconds). */
  readonly createdAt: number;
}

/**
 * A user with the account that was looked up.
 *
 * @since 0.1.0
 * @category store
 */
export interface UserWithAccount {
  readonly user: UserRecord;
  readonly account: AccountRecord;
}

/**
 * What a sign-in writes back to an account it found: the profile's email as it is now, and
 * new tokens (`undefined`: keep those stored).
 *
 * @since 0.1.0
 * @category store
 */
export interface AccountUpdate {
  readonly email: string | undefined;
  readonly verifiedEmail: string | undefined;
  readonly tokens: StoredTokens | undefined;
}

/**
 * The outcome of an unlink: done, refused because it is the user's last account, or no such
 * account.
 *
 * @since 0.1.0
 * @category store
 */
export type RemoveOutcome = "removed" | "last" | "missing";

/**
 * A store that cannot answer (the database down or broken). `Accounts` passes it on; over
 * HTTP it is a 503. Its `message` names the operation, never a token, an email or an id; its
 * `cause` (the driver's error) is for logs, never for a response.
 *
 * @since 0.1.0
 * @category store
 */
export class AccountStoreError extends CodedError<AccountStoreError>(
  "effect-strata/accounts/AccountStoreError",
)(
  "AccountStoreError",
  { message: Schema.String, cause: Schema.optional(Schema.Unknown) },
  { status: 503, code: "account_store_unavailable", message: "Service Unavailable" },
) {}

/**
 * Keeps users and accounts. Accounts are keyed by `(provider, subject)`, unique; a user has
 * at most one account per provider.
 *
 * @since 0.1.0
 * @category store
 */
export interface AccountStoreService {
  /** The account `(provider, subject)` and its user. */
  readonly findByAccount: (
    provider: string,
    subject: string,
  ) => Effect.Effect<Option.Option<UserWithAccount>, AccountStoreError>;
  /** The distinct users with an account whose verified email is `verifiedEmail` (normalised). */
  readonly findUsersByVerifiedEmail: (
    verifiedEmail: string,
  ) => Effect.Effect<ReadonlyArray<UserRecord>, AccountStoreError>;
  /** The user `id`. */
  readonly findUser: (id: string) => Effect.Effect<Option.Option<UserRecord>, AccountStoreError>;
  /** The user's account of `provider`. */
  readonly findAccount: (
    userId: string,
    provider: string,
  ) => Effect.Effect<Option.Option<AccountRecord>, AccountStoreError>;
  /** The user's accounts, oldest first. */
  readonly listAccounts: (
    userId: string,
  ) => Effect.Effect<ReadonlyArray<AccountRecord>, AccountStoreError>;
  /**
   * Creates `user` with its first `account`, both or neither: `false` (nothing written) when
   * the user id is taken or the account is already linked (a concurrent first sign-in won).
   */
  readonly createUser: (
    user: UserRecord,
    account: AccountRecord,
  ) => Effect.Effect<boolean, AccountStoreError>;
  /**
   * Links `account` to its (existing) user: `false` (nothing written) when `(provider,
   * subject)` is already linked or the user already has an account of `provider`.
   */
  readonly insertAccount: (account: AccountRecord) => Effect.Effect<boolean, AccountStoreError>;
  /** Replaces the app's record of user `id`: `false` when there is no such user. */
  readonly updateUser: (id: string, data: unknown) => Effect.Effect<boolean, AccountStoreError>;
  /** Writes a sign-in's profile email and tokens back to the account. */
  readonly updateAccount: (
    provider: string,
    subject: string,
    update: AccountUpdate,
  ) => Effect.Effect<void, AccountStoreError>;
  /** Unlinks the user's account of `provider`, unless it is the user's last one. */
  readonly removeAccount: (
    userId: string,
    provider: string,
  ) => Effect.Effect<RemoveOutcome, AccountStoreError>;
  /**
   * Claims the right to refresh the account's tokens until `until` (epoch milliseconds):
   * `true` when no claim was held or the one held expired before `now`. One claim at a time
   * per account, across every instance using the store.
   */
  readonly claimRefresh: (
    provider: string,
    subject: string,
    now: number,
    until: number,
  ) => Effect.Effect<boolean, AccountStoreError>;
  /**
   * Ends the claim made with `until` (unless another replaced it, after it expired), and
   * stores `tokens` when given: a refresh that succeeded keeps its tokens, rotated refresh
   * token included, whoever holds the claim now.
   */
  readonly releaseRefresh: (
    provider: string,
    subject: string,
    until: number,
    tokens: StoredTokens | undefined,
  ) => Effect.Effect<void, AccountStoreError>;
}

/**
 * The account store. Layers: `MemoryAccountStore.layer`, `SqlAccountStore.layer` (any
 * `SqlClient`), `SqlAccountStore.sqlite`, `SqlAccountStore.pg`, or
 * `Layer.succeed(AccountStore, AccountStore.of({...}))`.
 *
 * @since 0.1.0
 * @category store
 */
export class AccountStore extends Context.Tag("effect-strata/accounts/AccountStore")<
  AccountStore,
  AccountStoreService
>() {}
