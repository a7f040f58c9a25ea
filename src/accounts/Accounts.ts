/**
 * Accounts on the Effect face: the app's users (records of a Schema the app gives) and the
 * provider accounts linked to them, keyed by `(provider, subject)`.
 *
 * @example
 * const User = Schema.Struct({ id: Schema.String, name: Schema.String });
 * const Users = Accounts.make(User);
 * const UserSession = Session.make(User);
 *
 * const AccountsLive = Users.layer({
 *   createUser: (profile, { id }) => ({ id, name: profile.name ?? "" }),
 * }).pipe(Layer.provide(SqlAccountStore.sqlite({ filename: "data/accounts.db" })));
 *
 * // in an OAuth success handler: the app user, then the session
 * const onSuccess = (signIn: OAuthSignIn) =>
 *   Users.signIn(signIn.provider, signIn.user, signIn.tokens).pipe(
 *     Effect.flatMap(UserSession.create),
 *   );
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type * as Option from "effect/Option";
import type * as Redacted from "effect/Redacted";
import type * as Schema from "effect/Schema";
import type { StartupError } from "../di/StartupError.js";
import type { OAuthTokens, OAuthUser } from "../oauth/OAuthResult.js";
import { AccountStore, type AccountStoreError } from "./AccountStore.js";
import type { AccountsApi, AppUser, LinkedAccount } from "./AccountsApi.js";
import type {
  AccountConflict,
  AccountNotLinked,
  InvalidProfile,
  LastAccount,
  ProviderTokenUnavailable,
  UserNotFound,
} from "./AccountsError.js";
import type { AccountsOptions } from "./AccountsOptions.js";
import { makeAccounts } from "./internal/makeAccounts.js";

export type { AccountsApi, AppUser, LinkedAccount } from "./AccountsApi.js";

/**
 * A typed view of the {@link Accounts} service (the same service, read as `AccountsApi<A>`),
 * made by {@link Accounts.make}, with its layer and accessors.
 *
 * @since 0.1.0
 * @category accounts
 */
export interface AccountsTag<A extends AppUser> extends Context.Tag<Accounts, AccountsApi<A>> {
  /** The Schema of the user records. */
  readonly schema: Schema.Schema<A, unknown>;
  /** The service on the `AccountStore` in context. */
  readonly layer: (
    options: AccountsOptions<A>,
  ) => Layer.Layer<Accounts, StartupError, AccountStore>;
  /** {@link AccountsApi.signIn} of the service in context. */
  readonly signIn: (
    provider: string,
    profile: OAuthUser,
    tokens?: OAuthTokens,
  ) => Effect.Effect<A, InvalidProfile | AccountConflict | AccountStoreError, Accounts>;
  /** {@link AccountsApi.link} of the service in context. */
  readonly link: (
    userId: string,
    provider: string,
    profile: OAuthUser,
    tokens?: OAuthTokens,
  ) => Effect.Effect<
    LinkedAccount,
    InvalidProfile | UserNotFound | AccountConflict | AccountStoreError,
    Accounts
  >;
  /** {@link AccountsApi.accounts} of the service in context. */
  readonly accounts: (
    userId: string,
  ) => Effect.Effect<ReadonlyArray<LinkedAccount>, AccountStoreError, Accounts>;
  /** {@link AccountsApi.unlink} of the service in context. */
  readonly unlink: (
    userId: string,
    provider: string,
  ) => Effect.Effect<void, AccountNotLinked | LastAccount | AccountStoreError, Accounts>;
  /** {@link AccountsApi.user} of the service in context. */
  readonly user: (userId: string) => Effect.Effect<Option.Option<A>, AccountStoreError, Accounts>;
  /** {@link AccountsApi.updateUser} of the service in context. */
  readonly updateUser: (user: A) => Effect.Effect<void, UserNotFound | AccountStoreError, Accounts>;
  /** {@link AccountsApi.providerToken} of the service in context. */
  readonly providerToken: (
    userId: string,
    provider: string,
  ) => Effect.Effect<
    Redacted.Redacted<string>,
    AccountNotLinked | ProviderTokenUnavailable | AccountStoreError,
    Accounts
  >;
}

/** The service's key: every typed view ({@link Accounts.make}) reads the same service. */
const KEY = "effect-strata/accounts/Accounts";

/**
 * The accounts service. Read it through the typed view of {@link Accounts.make}; the tag
 * itself gives `AccountsApi<AppUser>`, for code that works with any app's users.
 *
 * @since 0.1.0
 * @category accounts
 */
export class Accounts extends Context.Tag(KEY)<Accounts, AccountsApi<AppUser>>() {
  /**
   * A typed view of the accounts whose user records `schema` describes (its encoded form is
   * what the store keeps, as JSON). Make it once per app.
   */
  static make<A extends AppUser, I>(schema: Schema.Schema<A, I>): AccountsTag<A> {
    class Typed extends Context.Tag(KEY)<Accounts, AccountsApi<A>>() {
      static readonly schema = schema as Schema.Schema<A, unknown>;
      static readonly layer = (options: AccountsOptions<A>) =>
        Layer.scoped(
          Typed,
          Effect.gen(function* () {
            const store = yield* AccountStore;
            return yield* makeAccounts(schema, options, store, yield* Effect.scope);
          }),
        );
      static readonly signIn = (provider: string, profile: OAuthUser, tokens?: OAuthTokens) =>
        Effect.flatMap(Typed, (accounts) => accounts.signIn(provider, profile, tokens));
      static readonly link = (
        userId: string,
        provider: string,
        profile: OAuthUser,
        tokens?: OAuthTokens,
      ) => Effect.flatMap(Typed, (accounts) => accounts.link(userId, provider, profile, tokens));
      static readonly accounts = (userId: string) =>
        Effect.flatMap(Typed, (accounts) => accounts.accounts(userId));
      static readonly unlink = (userId: string, provider: string) =>
        Effect.flatMap(Typed, (accounts) => accounts.unlink(userId, provider));
      static readonly user = (userId: string) =>
        Effect.flatMap(Typed, (accounts) => accounts.user(userId));
      static readonly updateUser = (user: A) =>
        Effect.flatMap(Typed, (accounts) => accounts.updateUser(user));
      static readonly providerToken = (userId: string, provider: string) =>
        Effect.flatMap(Typed, (accounts) => accounts.providerToken(userId, provider));
    }
    // `AccountsTag` is the class's shape; only Effect's `this`-typed unification marker differs.
    return Typed as unknown as AccountsTag<A>;
  }
}
