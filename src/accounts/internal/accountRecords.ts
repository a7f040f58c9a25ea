/**
 * The records behind `Accounts`: the app's users encoded and decoded by their Schema and
 * created by `createUser`, accounts made and refreshed (their provider tokens sealed when
 * kept), and the public view of an account.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import * as ParseResult from "effect/ParseResult";
import * as Schema from "effect/Schema";
import { randomToken } from "../../crypto/SecureRandom.js";
import type { OAuthTokens, OAuthUser } from "../../oauth/OAuthResult.js";
import type {
  AccountRecord,
  AccountStoreService,
  StoredTokens,
  UserRecord,
} from "../AccountStore.js";
import type { AppUser, LinkedAccount } from "../AccountsApi.js";
import type { AccountsOptions } from "../AccountsOptions.js";
import type { ProviderTokens } from "./providerTokens.js";
import type { Checked } from "./signInInput.js";

/** The public view of an account. */
export const linkedOf = (account: AccountRecord): LinkedAccount => ({
  provider: account.provider,
  subject: account.subject,
  ...(account.email === undefined ? {} : { email: account.email }),
  emailVerified: account.verifiedEmail !== undefined,
  linkedAt: new Date(account.createdAt),
  hasTokens: account.tokens !== undefined,
});

/**
 * The record steps for users of `schema` on `store`; `tokens` seals provider tokens (none:
 * they are not kept).
 */
export const makeRecords = <A extends AppUser, I>(
  schema: Schema.Schema<A, I>,
  options: AccountsOptions<A>,
  store: AccountStoreService,
  tokens: ProviderTokens | undefined,
) => {
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
  const refreshAccount = (account: AccountRecord, input: Checked, given: OAuthTokens | undefined) =>
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

  return { encoded, decoded, newAccount, refreshAccount, created, linkedNow };
};

/** The record steps of one `Accounts` service. */
export type Records<A extends AppUser> = ReturnType<typeof makeRecords<A, unknown>>;
