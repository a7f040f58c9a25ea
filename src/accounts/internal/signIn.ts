/**
 * Signing in and linking: a sign-in finds the account's user, else links the account to the
 * user of its verified email (with `linkByVerifiedEmail`), else creates a user; a link joins an
 * account to a given user. A store's refusal (a concurrent sign-in won) is read back, never
 * overwritten.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import type { AccountRecord, AccountStoreService, UserRecord } from "../AccountStore.js";
import type { AccountsApi, AppUser } from "../AccountsApi.js";
import { AccountConflict, UserNotFound } from "../AccountsError.js";
import { linkedOf, type Records } from "./accountRecords.js";
import { checkSignIn } from "./signInInput.js";

/** `Accounts.signIn` over `records` and `store`. */
export const makeSignIn = <A extends AppUser>(
  records: Records<A>,
  store: AccountStoreService,
  linkByVerifiedEmail: boolean,
): AccountsApi<A>["signIn"] => {
  const { refreshAccount, decoded, newAccount, linkedNow, created, encoded } = records;
  return (provider, profile, given) =>
    Effect.gen(function* () {
      const input = yield* checkSignIn(provider, profile);
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
};

/** `Accounts.link` over `records` and `store`. */
export const makeLink = <A extends AppUser>(
  records: Records<A>,
  store: AccountStoreService,
): AccountsApi<A>["link"] => {
  const { refreshAccount, newAccount, linkedNow } = records;
  return (userId, provider, profile, given) =>
    Effect.gen(function* () {
      const input = yield* checkSignIn(provider, profile);
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
};
