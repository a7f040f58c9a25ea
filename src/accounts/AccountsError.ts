/**
 * The failures of `Accounts`, one tagged error each. A sign-in or link route answers with
 * them, so they are `Schema.TaggedError`s with an HTTP status, a stable `error` code and a
 * public message, as the OAuth pipeline's are, and answer for themselves on any `@effect/platform`
 * server (a route that lets one escape answers its status and body). None carries a token, an email or a profile
 * field: only the provider name and a reason from a fixed list.
 *
 * @since 0.1.0
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema";
import * as Respondable from "@effect/platform/HttpServerRespondable";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { codedFailureResponse } from "../http/CodedFailure.js";
import type { AccountStoreError } from "./AccountStore.js";

/**
 * What is wrong with a sign-in's input: `provider` (not a provider name: lower-case letters,
 * digits, `-` or `_`, at most 64), `subject` (the profile has no `id`, or an empty or overlong
 * one), `email` (an overlong email, or `emailVerified` without an email). 400.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidProfile extends Schema.TaggedError<InvalidProfile>(
  "effect-strata/accounts/InvalidProfile",
)(
  "InvalidProfile",
  {
    /** The provider name, or `""` when the name itself is what is wrong. */
    provider: Schema.String,
    reason: Schema.Literal("provider", "subject", "email"),
  },
  HttpApiSchema.annotations({ status: 400 }),
) {
  /** The HTTP status a route answers with. */
  get httpStatus(): number {
    return 400;
  }
  /** The stable `error` code of the response body. */
  get code(): string {
    return "invalid_profile";
  }
  /** The public message of the response body. */
  get publicMessage(): string {
    return "The provider's profile cannot be used to sign in";
  }
  /** Its status and body (the standard shape plus `error`), on any `@effect/platform` server. */
  [Respondable.symbol]() {
    return Effect.succeed(codedFailureResponse(this));
  }
}

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
export class AccountConflict extends Schema.TaggedError<AccountConflict>(
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
  HttpApiSchema.annotations({ status: 409 }),
) {
  /** The HTTP status a route answers with. */
  get httpStatus(): number {
    return 409;
  }
  /** The stable `error` code of the response body. */
  get code(): string {
    return "account_conflict";
  }
  /** The public message of the response body. */
  get publicMessage(): string {
    return conflictMessages[this.reason];
  }
  /** Its status and body (the standard shape plus `error`), on any `@effect/platform` server. */
  [Respondable.symbol]() {
    return Effect.succeed(codedFailureResponse(this));
  }
}

/**
 * The user has no account of this provider (unlink, provider token). 404.
 *
 * @since 0.1.0
 * @category errors
 */
export class AccountNotLinked extends Schema.TaggedError<AccountNotLinked>(
  "effect-strata/accounts/AccountNotLinked",
)("AccountNotLinked", { provider: Schema.String }, HttpApiSchema.annotations({ status: 404 })) {
  /** The HTTP status a route answers with. */
  get httpStatus(): number {
    return 404;
  }
  /** The stable `error` code of the response body. */
  get code(): string {
    return "account_not_linked";
  }
  /** The public message of the response body. */
  get publicMessage(): string {
    return "No account of this provider is linked";
  }
  /** Its status and body (the standard shape plus `error`), on any `@effect/platform` server. */
  [Respondable.symbol]() {
    return Effect.succeed(codedFailureResponse(this));
  }
}

/**
 * Unlinking the user's last account is refused: the user could never sign in again. 409.
 *
 * @since 0.1.0
 * @category errors
 */
export class LastAccount extends Schema.TaggedError<LastAccount>(
  "effect-strata/accounts/LastAccount",
)("LastAccount", { provider: Schema.String }, HttpApiSchema.annotations({ status: 409 })) {
  /** The HTTP status a route answers with. */
  get httpStatus(): number {
    return 409;
  }
  /** The stable `error` code of the response body. */
  get code(): string {
    return "last_account";
  }
  /** The public message of the response body. */
  get publicMessage(): string {
    return "The last linked account cannot be unlinked";
  }
  /** Its status and body (the standard shape plus `error`), on any `@effect/platform` server. */
  [Respondable.symbol]() {
    return Effect.succeed(codedFailureResponse(this));
  }
}

/**
 * No user has this id (linking to, or updating, a user that does not exist). 404.
 *
 * @since 0.1.0
 * @category errors
 */
export class UserNotFound extends Schema.TaggedError<UserNotFound>(
  "effect-strata/accounts/UserNotFound",
)("UserNotFound", {}, HttpApiSchema.annotations({ status: 404 })) {
  /** The HTTP status a route answers with. */
  get httpStatus(): number {
    return 404;
  }
  /** The stable `error` code of the response body. */
  get code(): string {
    return "user_not_found";
  }
  /** The public message of the response body. */
  get publicMessage(): string {
    return "Unknown user";
  }
  /** Its status and body (the standard shape plus `error`), on any `@effect/platform` server. */
  [Respondable.symbol]() {
    return Effect.succeed(codedFailureResponse(this));
  }
}

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
export class ProviderTokenUnavailable extends Schema.TaggedError<ProviderTokenUnavailable>(
  "effect-strata/accounts/ProviderTokenUnavailable",
)(
  "ProviderTokenUnavailable",
  {
    provider: Schema.String,
    reason: Schema.Literal("not-stored", "expired", "refresh-rejected", "refresh-failed"),
  },
  HttpApiSchema.annotations({ status: 401 }),
) {
  /** The HTTP status a route answers with. */
  get httpStatus(): number {
    return this.reason === "refresh-failed" ? 502 : 401;
  }
  /** The stable `error` code of the response body. */
  get code(): string {
    return "provider_token_unavailable";
  }
  /** The public message of the response body. */
  get publicMessage(): string {
    return this.reason === "refresh-failed"
      ? "The provider is unavailable"
      : "Sign in with this provider again";
  }
  /** Its status and body (the standard shape plus `error`), on any `@effect/platform` server. */
  [Respondable.symbol]() {
    return Effect.succeed(codedFailureResponse(this));
  }
}

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
