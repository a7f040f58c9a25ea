/**
 * The `Accounts` service over an `AccountStore`: sign-in (find, link by verified email, or
 * create), explicit linking, listing, unlinking, the app's user records, and provider tokens.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import * as ParseResult from "effect/ParseResult";
import * as Schema from "effect/Schema";
import type * as Scope from "effect/Scope";
import { randomToken } from "../../crypto/SecureRandom.js";
import type { StartupError } from "../../di/StartupError.js";
import type { OAuthTokens, OAuthUser } from "../../oauth/OAuthResult.js";
import type {
  AccountRecord,
  AccountStoreService,
  StoredTokens,
  UserRecord,
} from "../AccountStore.js";
import type { AccountsApi, AppUser, LinkedAccount } from "../AccountsApi.js";
import {
  AccountConflict,
  AccountNotLinked,
  InvalidProfile,
  LastAccount,
  ProviderTokenUnavailable,
  UserNotFound,
} from "../AccountsError.js";
import type { AccountsOptions } from "../AccountsOptions.js";
import * as ProviderTokens from "./providerTokens.js";

/** A provider name as Strata names providers: lower-case letters, digits, `-`, `_`. */
const PROVIDER = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** The longest provider subject kept (providers' ids are far shorter). */
const MAX_SUBJECT = 255;
/** The longest email address (RFC 5321's path limit). */
const MAX_EMAIL = 320;

/** A sign-in's input, checked. */
interface Checked {
  readonly provider: string;
  readonly subject: string;
  readonly email: string | undefined;
  /** The email normalised, only when the provider marked it verified. */
  readonly verifiedEmail: string | undefined;
}

/** `provider` and `profile` checked: typed failures for anything a store must not keep. */
const check = (provider: string, profile: OAuthUser): Effect.Effect<Checked, InvalidProfile> => {
  if (typeof provider !== "string" || !PROVIDER.test(provider)) {
    return Effect.fail(new InvalidProfile({ provider: "", reason: "provider" }));
  }
  const subject: unknown = profile?.id;
  if (typeof subject !== "string" || subject.length === 0 || subject.length > MAX_SUBJECT) {
    return Effect.fail(new InvalidProfile({ provider, reason: "subject" }));
  }
  const email: unknown = profile.email;
  if (
    (email !== undefined && (typeof email !== "string" || email.length > MAX_EMAIL)) ||
    (email === undefined && profile.emailVerified === true)
  ) {
    return Effect.fail(new InvalidProfile({ provider, reason: "email" }));
  }
  // Only `true` is verified: a missing, false or odd value ("true", 1) never links (check 31).
  const verifiedEmail =
    typeof email === "string" && profile.emailVerified === true
      ? email.trim().toLowerCase()
      : undefined;
  return Effect.succeed({
    provider,
    subject,
    email,
    verifiedEmail: verifiedEmail === "" ? undefined : verifiedEmail,
  });
};

/** The public view of an account. */
const linkedOf = (account: AccountRecord): LinkedAccount => ({
  provider: account.provider,
  subject: account.subject,
  ...(account.email === undefined ? {} : { email: account.email }),
  emailVerified: account.verifiedEmail !== undefined,
  linkedAt: new Date(account.createdAt),
  hasTokens: account.tokens !== undefined,
});

/**
 * The service for users of `schema` on `store`, under `options`; provider-token refreshes run
 * in `scope`.
 */
export const makeAccounts = <A extends AppUser, I>(
  schema: Schema.Schema<A, I>,
  options: AccountsOptions<A>,
  store: AccountStoreService,
  scope: Scope.Scope,
): Effect.Effect<AccountsApi<A>, StartupError> =>
  Effect.gen(function* () {
    const tokens =
      options.tokens === undefined
        ? undefined
        : yield* ProviderTokens.make(options.tokens, store, scope);
    const linkByVerifiedEmail = options.linkByVerifiedEmail === true;
    const encode = Schema.encode(schema);
    const decode = Schema.decodeUnknown(schema);

    const encoded = (user: A) =>
      Effect.orDieWith(
        encode(user),
        (error) =>
          new Error(
            `Accounts: the user record does not match its Schema: ${ParseResult.TreeFormatter.formatErrorSync(error)}`,
          ),
      );
    const decoded = (user: UserRecord) =>
      Effect.orDieWith(
        decode(user.data),
        (error) =>
          new Error(
            `Accounts: a stored user record no longer matches the Schema (migrate the stored records): ${ParseResult.TreeFormatter.formatErrorSync(error)}`,
          ),
      );

    /** The tokens to store for a sign-in: none unless kept, and given. */
    const sealed = (
      input: Checked,
      given: OAuthTokens | undefined,
      previous: StoredTokens | undefined,
    ): Effect.Effect<StoredTokens | undefined> =>
      tokens === undefined || given === undefined
        ? Effect.succeed(undefined)
        : tokens.seal(input.provider, input.subject, given, previous);

    const newAccount = (input: Checked, userId: string, given: OAuthTokens | undefined) =>
      Effect.gen(function* () {
        return {
          provider: input.provider,
          subject: input.subject,
          userId,
          email: input.email,
          verifiedEmail: input.verifiedEmail,
          tokens: yield* sealed(input, given, undefined),
          createdAt: yield* Clock.currentTimeMillis,
        } satisfies AccountRecord;
      });

    /** A returning sign-in's write: only when the email changed or tokens are to be kept. */
    const refreshAccount = (
      account: AccountRecord,
      input: Checked,
      given: OAuthTokens | undefined,
    ) =>
      Effect.gen(function* () {
        const newTokens = yield* sealed(input, given, account.tokens);
        if (
          newTokens === undefined &&
          account.email === input.email &&
          account.verifiedEmail === input.verifiedEmail
        ) {
          return account;
        }
        yield* store.updateAccount(input.provider, input.subject, {
          email: input.email,
          verifiedEmail: input.verifiedEmail,
          tokens: newTokens,
        });
        return {
          ...account,
          email: input.email,
          verifiedEmail: input.verifiedEmail,
          tokens: newTokens ?? account.tokens,
        };
      });

    /** The app's record of a new user, its id checked. */
    const created = (profile: OAuthUser, provider: string) =>
      Effect.gen(function* () {
        const id = yield* randomToken(16);
        const made = options.createUser(profile, { id, provider });
        const user = Effect.isEffect(made) ? yield* made : made;
        if (typeof user?.id !== "string" || user.id.length === 0) {
          return yield* Effect.dieMessage(
            "Accounts: createUser must return a record whose `id` is a non-empty string",
          );
        }
        return user;
      });

    /** After a refused link or creation: who has the account now. */
    const linkedNow = (input: Checked) =>
      Effect.map(store.findByAccount(input.provider, input.subject), Option.getOrUndefined);

    const signIn: AccountsApi<A>["signIn"] = (provider, profile, given) =>
      Effect.gen(function* () {
        const input = yield* check(provider, profile);
        const found = yield* store.findByAccount(input.provider, input.subject);
        if (Option.isSome(found)) {
          yield* refreshAccount(found.value.account, input, given);
          return yield* decoded(found.value.user);
        }
        if (linkByVerifiedEmail && input.verifiedEmail !== undefined) {
          const owners = yield* store.findUsersByVerifiedEmail(input.verifiedEmail);
          if (owners.length > 1) {
            return yield* new AccountConflict({ provider, reason: "ambiguous-email" });
          }
          const owner = owners[0];
          if (owner !== undefined) {
            if (yield* store.insertAccount(yield* newAccount(input, owner.id, given))) {
              return yield* decoded(owner);
            }
            const now = yield* linkedNow(input);
            if (now !== undefined) return yield* decoded(now.user);
            return yield* new AccountConflict({ provider, reason: "provider-already-linked" });
          }
        }
        const user = yield* created(profile, input.provider);
        const record = {
          id: user.id,
          data: yield* encoded(user),
          createdAt: yield* Clock.currentTimeMillis,
        } satisfies UserRecord;
        if (yield* store.createUser(record, yield* newAccount(input, user.id, given))) return user;
        // Refused: a concurrent first sign-in of this account won (its user is the user), or
        // the id createUser gave is taken.
        const now = yield* linkedNow(input);
        if (now !== undefined) return yield* decoded(now.user);
        return yield* new AccountConflict({ provider, reason: "user-id-taken" });
      });

    const link: AccountsApi<A>["link"] = (userId, provider, profile, given) =>
      Effect.gen(function* () {
        const input = yield* check(provider, profile);
        if (Option.isNone(yield* store.findUser(userId))) return yield* new UserNotFound();
        const mine = (found: { readonly account: AccountRecord } | undefined) =>
          Effect.gen(function* () {
            if (found === undefined) {
              return yield* new AccountConflict({ provider, reason: "provider-already-linked" });
            }
            if (found.account.userId !== userId) {
              return yield* new AccountConflict({ provider, reason: "linked-to-another-user" });
            }
            return linkedOf(yield* refreshAccount(found.account, input, given));
          });
        const existing = yield* linkedNow(input);
        if (existing !== undefined) return yield* mine(existing);
        const account = yield* newAccount(input, userId, given);
        if (yield* store.insertAccount(account)) return linkedOf(account);
        return yield* mine(yield* linkedNow(input));
      });

    const api: AccountsApi<A> = {
      signIn,
      link,
      accounts: (userId) => Effect.map(store.listAccounts(userId), (all) => all.map(linkedOf)),
      unlink: (userId, provider) =>
        Effect.flatMap(
          store.removeAccount(userId, provider),
          (outcome): Effect.Effect<void, AccountNotLinked | LastAccount> =>
            outcome === "removed"
              ? Effect.void
              : outcome === "last"
                ? Effect.fail(new LastAccount({ provider }))
                : Effect.fail(new AccountNotLinked({ provider })),
        ),
      user: (userId) =>
        Effect.flatMap(store.findUser(userId), (found) =>
          Option.isNone(found) ? Effect.succeedNone : Effect.asSome(decoded(found.value)),
        ),
      updateUser: (user) =>
        Effect.flatMap(encoded(user), (data) =>
          Effect.flatMap(store.updateUser(user.id, data), (updated) =>
            updated ? Effect.void : Effect.fail(new UserNotFound()),
          ),
        ),
      providerToken: (userId, provider) =>
        Effect.gen(function* () {
          const account = yield* store.findAccount(userId, provider);
          if (Option.isNone(account)) return yield* new AccountNotLinked({ provider });
          // Without the `tokens` option nothing is kept.
          if (tokens === undefined) {
            return yield* new ProviderTokenUnavailable({ provider, reason: "not-stored" });
          }
          return yield* tokens.accessToken(account.value);
        }),
    };
    return api;
  });
