/**
 * The in-memory account store: users and accounts in this process's memory, gone when it
 * ends. For tests and trials; every operation is atomic (each runs without yielding).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import {
  type AccountRecord,
  AccountStore,
  type AccountStoreService,
  type UserRecord,
} from "./AccountStore.js";

/** The key of an account: provider and subject, which a provider name never contains `\0` of. */
const keyOf = (provider: string, subject: string) => `${provider}\u0000${subject}`;

/**
 * A fresh in-memory store (its state lives in the layer, one per build).
 *
 * @since 0.1.0
 * @category store
 */
export const layer = (): Layer.Layer<AccountStore> =>
  Layer.sync(AccountStore, () => {
    const users = new Map<string, UserRecord>();
    const accounts = new Map<string, AccountRecord>();
    // The refresh claims, by account key: until when each is held.
    const claims = new Map<string, number>();

    const accountsOf = (userId: string) =>
      [...accounts.values()].filter((account) => account.userId === userId);
    const linkable = (account: AccountRecord) =>
      !accounts.has(keyOf(account.provider, account.subject)) &&
      !accountsOf(account.userId).some((other) => other.provider === account.provider);
    const link = (account: AccountRecord) => {
      accounts.set(keyOf(account.provider, account.subject), account);
    };

    return AccountStore.of({
      findByAccount: (provider, subject) =>
        Effect.sync(() => {
          const account = accounts.get(keyOf(provider, subject));
          const user = account === undefined ? undefined : users.get(account.userId);
          return account === undefined || user === undefined
            ? Option.none()
            : Option.some({ user, account });
        }),
      findUsersByVerifiedEmail: (verifiedEmail) =>
        Effect.sync(() => {
          const ids = new Set<string>();
          for (const account of accounts.values()) {
            if (account.verifiedEmail === verifiedEmail) ids.add(account.userId);
          }
          return [...ids].flatMap((id) => {
            const user = users.get(id);
            return user === undefined ? [] : [user];
          });
        }),
      findUser: (id) => Effect.sync(() => Option.fromNullable(users.get(id))),
      findAccount: (userId, provider) =>
        Effect.sync(() =>
          Option.fromNullable(accountsOf(userId).find((account) => account.provider === provider)),
        ),
      listAccounts: (userId) =>
        Effect.sync(() => accountsOf(userId).sort((a, b) => a.createdAt - b.createdAt)),
      createUser: (user, account) =>
        Effect.sync(() => {
          if (users.has(user.id) || !linkable(account)) return false;
          users.set(user.id, user);
          link(account);
          return true;
        }),
      insertAccount: (account) =>
        Effect.sync(() => {
          if (!users.has(account.userId) || !linkable(account)) return false;
          link(account);
          return true;
        }),
      updateUser: (id, data) =>
        Effect.sync(() => {
          const user = users.get(id);
          if (user === undefined) return false;
          users.set(id, { ...user, data });
          return true;
        }),
      updateAccount: (provider, subject, update) =>
        Effect.sync(() => {
          const key = keyOf(provider, subject);
          const account = accounts.get(key);
          if (account === undefined) return;
          accounts.set(key, {
            ...account,
            email: update.email,
            verifiedEmail: update.verifiedEmail,
            tokens: update.tokens ?? account.tokens,
          });
        }),
      removeAccount: (userId, provider) =>
        Effect.sync(() => {
          const own = accountsOf(userId);
          const account = own.find((candidate) => candidate.provider === provider);
          if (account === undefined) return "missing";
          if (own.length <= 1) return "last";
          accounts.delete(keyOf(account.provider, account.subject));
          return "removed";
        }),
      claimRefresh: (provider, subject, now, until) =>
        Effect.sync(() => {
          const key = keyOf(provider, subject);
          const held = claims.get(key);
          if (!accounts.has(key) || (held !== undefined && held > now)) return false;
          claims.set(key, until);
          return true;
        }),
      releaseRefresh: (provider, subject, until, tokens) =>
        Effect.sync(() => {
          const key = keyOf(provider, subject);
          if (claims.get(key) === until) claims.delete(key);
          const account = accounts.get(key);
          if (account !== undefined && tokens !== undefined) {
            accounts.set(key, { ...account, tokens });
          }
        }),
    } satisfies AccountStoreService);
  });
