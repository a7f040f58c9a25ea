/**
 * The `Accounts` service over an `AccountStore`: sign-in (find, link by verified email, or
 * create), explicit linking, listing, unlinking, the app's user records, and provider tokens.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import type * as Schema from "effect/Schema";
import type * as Scope from "effect/Scope";
import type { StartupError } from "../../di/StartupError.js";
import type { AccountStoreService } from "../AccountStore.js";
import type { AccountsApi, AppUser } from "../AccountsApi.js";
import {
  AccountNotLinked,
  LastAccount,
  ProviderTokenUnavailable,
  UserNotFound,
} from "../AccountsError.js";
import type { AccountsOptions } from "../AccountsOptions.js";
import { linkedOf, makeRecords } from "./accountRecords.js";
import * as ProviderTokens from "./providerTokens.js";
import { makeLink, makeSignIn } from "./signIn.js";

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
    const records = makeRecords(schema, options, store, tokens);
    const { encoded, decoded } = records;

    const api: AccountsApi<A> = {
      signIn: makeSignIn(records, store, linkByVerifiedEmail),
      link: makeLink(records, store),
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
