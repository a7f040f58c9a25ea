/**
 * The failures of `Accounts`, one tagged error each. A sign-in or link route answers with
 * them, so they are `Schema.TaggedError`s with an HTTP status, a stable `error` code and a
 * public message, as the OAuth pipeline's are, and answer for themselves on any `@effect/platform`
 * server (a route that lets one escape answers its status and body). None carries a token, an email or a profile
 * field: only the provider name and a reason from a fixed list.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema";
import { CodedError } from "../http/CodedFailure.js";
import { CodedHttpError } from "../http/CodedHttpError.js";
import type { AccountStoreError } from "./AccountStore.js";

/**
 * What is wrong with a sign-in's input: `provider` (not a provider name: lower-case letters,
 * digits, `-` or `_`, at most 64), `subject` (the profile has no `id`, or an empty or overlong
 * one), `email` (an overlong email, or `emailVerified` without an email). 400.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidProfile extends CodedError<InvalidProfile>(
  "effect-strata/accounts/InvalidProfile",
)(
  "InvalidProfile",
  {
    /** The provider name, or `""` when the name itself is what is wrong. */
    provider: Schema.String,
    reason: Schema.Literal("provider", "subject", "email"),
  },
  {
    status: 400,
    code: "invalid_profile",
    message: "The provider's profile cannot be used to sign in",
  },
) {}

/** The public message of each {@link AccountConflict} reason. */
const conflictMessages = {
  "linked-to-another-user": "This account is already linked to another user",
  "provider-already-linked": "Another account of this provider is already linked",
  "ambiguous-email": "Several users have this email; sign in with an account already linked",
  "user-id-taken": "The new user's id is already taken",
} as const;

/**
 * Why an account cannot be linked (or a user created). 409.
 * - `linked-to-another-user`: this provider account belongs to another user.
 * - `provider-already-linked`: the user already has another account of this provider.
 * - `ambiguous-email`: linking by verified email found several users with that email.
 * - `user-id-taken`: `createUser` returned the id of an existing user.
 *
 * @since 0.1.0
 * @category errors
 */
export class AccountConflict extends CodedError<AccountConflict>(
  "effect-strata/accounts/AccountConflict",
)(
  "AccountConflict",
  {
    provider: Schema.String,
    reason: Schema.Literal(
      "linked-to-another-user",
      "provider-already-linked",
      "ambiguous-email",
      "user-id-taken",
    ),
  },
  { status: 409, code: "account_conflict", message: (failure) => conflictMessages[failure.reason] },
) {}

/**
 * The user has no account of this provider (unlink, provider token). 404.
 *
 * @since 0.1.0
 * @category errors
 */
export class AccountNotLinked extends CodedError<AccountNotLinked>(
  "effect-strata/accounts/AccountNotLinked",
)(
  "AccountNotLinked",
  { provider: Schema.String },
  { status: 404, code: "account_not_linked", message: "No account of this provider is linked" },
) {}

/**
 * Unlinking the user's last account is refused: the user could never sign in again. 409.
 *
 * @since 0.1.0
 * @category errors
 */
export class LastAccount extends CodedError<LastAccount>("effect-strata/accounts/LastAccount")(
  "LastAccount",
  { provider: Schema.String },
  { status: 409, code: "last_account", message: "The last linked account cannot be unlinked" },
) {}

/**
 * No user has this id (linking to, or updating, a user that does not exist). 404.
 *
 * @since 0.1.0
 * @category errors
 */
export class UserNotFound extends CodedError<UserNotFound>("effect-strata/accounts/UserNotFound")(
  "UserNotFound",
  {},
  { status: 404, code: "user_not_found", message: "Unknown user" },
) {}

/**
 * No valid provider access token can be given: `not-stored` (tokens are not kept, or this
 * account has none), `expired` (and no refresh token, or the provider cannot refresh),
 * `refresh-rejected` (the provider refused the refresh token: the user must sign in with the
 * provider again; the account stays linked), `refresh-failed` (the provider could not be
 * reached, was too slow or answered nonsense). 401, or 502 for `refresh-failed`.
 *
 * @since 0.1.0
 * @category errors
 */
export class ProviderTokenUnavailable extends CodedError<ProviderTokenUnavailable>(
  "effect-strata/accounts/ProviderTokenUnavailable",
)(
  "ProviderTokenUnavailable",
  {
    provider: Schema.String,
    reason: Schema.Literal("not-stored", "expired", "refresh-rejected", "refresh-failed"),
  },
  {
    status: 401,
    statusOf: (failure) => (failure.reason === "refresh-failed" ? 502 : 401),
    code: "provider_token_unavailable",
    message: (failure) =>
      failure.reason === "refresh-failed"
        ? "The provider is unavailable"
        : "Sign in with this provider again",
  },
) {}

/**
 * Every failure of `Accounts`, each with its HTTP status, stable `error` code and public
 * message (the store's own, `AccountStoreError`, included: a 503).
 *
 * @since 0.1.0
 * @category errors
 */
export type AccountsError =
  | InvalidProfile
  | AccountConflict
  | AccountNotLinked
  | LastAccount
  | UserNotFound
  | ProviderTokenUnavailable
  | AccountStoreError;

const tags: ReadonlySet<string> = new Set([
  "InvalidProfile",
  "AccountConflict",
  "AccountNotLinked",
  "LastAccount",
  "UserNotFound",
  "ProviderTokenUnavailable",
  "AccountStoreError",
]);

/** `true` for any {@link AccountsError}. @since 0.1.0 @category errors */
export const isAccountsError = (u: unknown): u is AccountsError =>
  typeof u === "object" &&
  u !== null &&
  "_tag" in u &&
  typeof u._tag === "string" &&
  tags.has(u._tag) &&
  "httpStatus" in u;

/**
 * An accounts failure thrown by the classic `AccountsService`: the one classic view of every
 * coded failure (`CodedHttpError`), an `HttpError` with the status and public message of the
 * tagged error in `reason` and its stable code in `error` (`account_conflict`, `last_account`, ...).
 *
 * @since 0.1.0
 * @category errors
 */
export const AccountsHttpError: {
  /** The classic view of `reason`. */
  new (reason: AccountsError): AccountsHttpError;
} = CodedHttpError;

/** An {@link AccountsHttpError}: a `CodedHttpError` of an accounts failure. @since 0.1.0 @category errors */
export type AccountsHttpError = CodedHttpError<AccountsError>;
