/**
 * `AccountsModule.forRoot(...)`: accounts on the classic face. It builds the `Accounts` service
 * once per app (its store in a scope of its own, closed when the app closes) and provides and
 * exports `AccountsService`.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import type * as Schema from "effect/Schema";
import * as Scope from "effect/Scope";
import { type DynamicModule, Module } from "../di/Module.js";
import { StartupError } from "../di/StartupError.js";
import { CodeRejected, OAuthHttpError, ProviderUnreachable } from "../oauth/OAuthError.js";
import type { OAuthUser } from "../oauth/OAuthResult.js";
import { OAuthService, type RefreshedTokens } from "../oauth/OAuthService.js";
import type { AccountStore } from "./AccountStore.js";
import { Accounts, type AppUser } from "./Accounts.js";
import type { AccountsOptions, NewUserContext, RefreshProviderToken } from "./AccountsOptions.js";
import { AccountsService } from "./AccountsService.js";
import * as MemoryAccountStore from "./MemoryAccountStore.js";
import * as SqlAccountStore from "./SqlAccountStore.js";

/**
 * A classic refresh: new tokens for `refreshToken`, as `OAuthService.refreshToken` gives them.
 * A rejection with an `OAuthHttpError` whose reason is `CodeRejected` is a refused refresh
 * token; any other is the provider's trouble.
 *
 * @since 0.1.0
 * @category classic
 */
export type ClassicRefresh = (
  provider: string,
  refreshToken: string,
  scopes: ReadonlyArray<string> | undefined,
) => Promise<RefreshedTokens>;

/**
 * What `AccountsModule.forRoot` takes.
 *
 * @since 0.1.0
 * @category classic
 */
export interface AccountsModuleOptions<A extends AppUser, I>
  extends Omit<AccountsOptions<A>, "createUser" | "tokens"> {
  /** The user records' Schema (a `Schema.Class` or any Schema encoding to JSON). */
  readonly schema: Schema.Schema<A, I>;
  /** The app's record of a new user (see `AccountsOptions.createUser`), or a Promise of it. */
  readonly createUser: (profile: OAuthUser, context: NewUserContext) => A | Promise<A>;
  /**
   * Where users live: `"memory"` (default: this process, for tests), `{ sqlite: { filename } }`
   * (an embedded SQLite file), `{ pg: { url } }` (PostgreSQL), or a Layer of an `AccountStore`.
   */
  readonly store?:
    | "memory"
    | { readonly sqlite: SqlAccountStore.SqliteAccountStoreOptions }
    | { readonly pg: SqlAccountStore.PgAccountStoreOptions }
    | Layer.Layer<AccountStore, unknown>;
  /**
   * Keep provider tokens (see `AccountsOptions.tokens`). They are refreshed with `refresh`,
   * else with the app's `OAuthService` when it is visible here (`OAuthModule.forRoot({ global:
   * true, ... })`).
   */
  readonly tokens?: {
    readonly secret: string | Redacted.Redacted<string>;
    readonly refresh?: ClassicRefresh;
  };
  /** Makes `AccountsService` visible to every module of the app (default `true`). */
  readonly global?: boolean;
}

const storeLayer = <A extends AppUser, I>(
  options: AccountsModuleOptions<A, I>,
): Layer.Layer<AccountStore, unknown> => {
  const store = options.store ?? "memory";
  if (store === "memory") return MemoryAccountStore.layer();
  if ("sqlite" in store) return SqlAccountStore.sqlite(store.sqlite);
  if ("pg" in store) return SqlAccountStore.pg(store.pg);
  return store;
};

/** A classic refresh as the Effect face's: a refused refresh token is `CodeRejected`. */
const refreshOf =
  (classic: ClassicRefresh): RefreshProviderToken =>
  (provider, refreshToken, scopes) =>
    Effect.tryPromise({
      try: () => classic(provider, Redacted.value(refreshToken), scopes),
      catch: (error) =>
        error instanceof OAuthHttpError && error.reason._tag === "CodeRejected"
          ? new CodeRejected({ provider, oauthError: "invalid_grant" })
          : new ProviderUnreachable({ provider }),
    }).pipe(
      Effect.map((tokens) => ({
        accessToken: Redacted.make(tokens.accessToken),
        ...(tokens.refreshToken === undefined
          ? {}
          : { refreshToken: Redacted.make(tokens.refreshToken) }),
        ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }),
      })),
    );

/** The Effect face's options of the classic ones. */
const effectOptions = <A extends AppUser, I>(
  options: AccountsModuleOptions<A, I>,
  oauth: OAuthService | undefined,
): AccountsOptions<A> => {
  const { tokens } = options;
  const classicRefresh =
    tokens?.refresh ??
    (oauth === undefined
      ? undefined
      : (provider: string, token: string, scopes: ReadonlyArray<string> | undefined) =>
          oauth.refreshToken(provider, token, scopes));
  return {
    createUser: (profile, context) => {
      const made = options.createUser(profile, context);
      return made instanceof Promise ? Effect.promise(() => made) : made;
    },
    ...(options.linkByVerifiedEmail === undefined
      ? {}
      : { linkByVerifiedEmail: options.linkByVerifiedEmail }),
    ...(tokens === undefined
      ? {}
      : {
          tokens: {
            secret: tokens.secret,
            ...(classicRefresh === undefined ? {} : { refresh: refreshOf(classicRefresh) }),
          },
        }),
  };
};

/** The classic service over an `Accounts` built in a scope of its own. */
const makeService = <A extends AppUser, I>(
  options: AccountsModuleOptions<A, I>,
  oauth: OAuthService | undefined,
): Effect.Effect<AccountsService<A>, StartupError> =>
  Effect.gen(function* () {
    const scope = yield* Scope.make();
    const typed = Accounts.make(options.schema);
    const layer = typed
      .layer(effectOptions(options, oauth))
      .pipe(Layer.provide(storeLayer(options)));
    const context = yield* Layer.buildWithScope(layer, scope).pipe(
      Effect.tapErrorCause((cause) => Scope.close(scope, Exit.failCause(cause))),
      Effect.mapError((error) =>
        error instanceof StartupError
          ? error
          : new StartupError({
              message: "AccountsModule: the account store failed to start",
              cause: error,
            }),
      ),
    );
    return new AccountsService(Context.get(context, typed), scope);
  });

/**
 * Accounts for the classic face.
 *
 * @example
 * const User = Schema.Struct({ id: Schema.String, name: Schema.String });
 * declare class MyAccountsController {} // routes on AccountsService
 *
 * @Module({
 *   imports: [
 *     AccountsModule.forRoot({
 *       schema: User,
 *       createUser: (profile, { id }) => ({ id, name: profile.name ?? "" }),
 *       store: { sqlite: { filename: "data/accounts.db" } },
 *     }),
 *   ],
 *   controllers: [MyAccountsController],
 * })
 * class AppModule {}
 *
 * @since 0.1.0
 * @category classic
 */
@Module({})
export class AccountsModule {
  /**
   * The module configured with `options`: it exports {@link AccountsService} (typed by
   * `options.schema` where it is injected as `AccountsService<User>`).
   */
  static forRoot<A extends AppUser, I>(options: AccountsModuleOptions<A, I>): DynamicModule {
    return {
      module: AccountsModule,
      global: options.global !== false,
      providers: [
        {
          token: AccountsService,
          useFactory: (oauth?: OAuthService) => makeService(options, oauth),
          inject: [{ token: OAuthService, optional: true }],
        },
      ],
      exports: [AccountsService],
    };
  }
}
