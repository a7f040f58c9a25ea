/**
 * The classic face of accounts: an injectable service with Promise methods over the `Accounts`
 * service (provided and exported by `AccountsModule.forRoot`). Its methods are the facade
 * boundary where Effects run.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import * as Scope from "effect/Scope";
import type { OAuthTokens, OAuthUser } from "../oauth/OAuthResult.js";
import { runPromiseExitOnCaller } from "../pipeline/internal/callerFiber.js";
import type { AccountsApi, AppUser, LinkedAccount } from "./Accounts.js";
import { AccountsHttpError, isAccountsError } from "./AccountsError.js";

/**
 * Provider tokens as the classic face has them (an `OAuthCallbackResult` is one).
 *
 * @since 0.1.0
 * @category classic
 */
export interface ClassicTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  readonly expiresAt?: Date;
  readonly scopes?: ReadonlyArray<string>;
}

/** The value of an exit, or its failure thrown: accounts failures as {@link AccountsHttpError}s. */
const unwrap = <A>(exit: Exit.Exit<A, unknown>): A => {
  if (Exit.isSuccess(exit)) return exit.value;
  const failure = Cause.failureOption(exit.cause);
  if (Option.isSome(failure) && isAccountsError(failure.value)) {
    throw new AccountsHttpError(failure.value);
  }
  throw Option.isSome(failure) ? failure.value : Cause.squash(exit.cause);
};

/** Runs `effect` on the calling request's fiber (its span, log annotations, interruption). */
const run = <A>(effect: Effect.Effect<A, unknown>): Promise<A> =>
  runPromiseExitOnCaller(effect).then(unwrap);

/** Classic tokens, `Redacted`. */
const redacted = (tokens: ClassicTokens | undefined): OAuthTokens | undefined =>
  tokens === undefined
    ? undefined
    : {
        accessToken: Redacted.make(tokens.accessToken),
        ...(tokens.refreshToken === undefined
          ? {}
          : { refreshToken: Redacted.make(tokens.refreshToken) }),
        ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }),
        ...(tokens.scopes === undefined ? {} : { scopes: tokens.scopes }),
      };

/**
 * Accounts for classic code (exported by `AccountsModule.forRoot`). Failures are thrown as
 * {@link AccountsHttpError}s (409 `account_conflict`, 404 `account_not_linked`, 503 when the
 * store cannot answer...), which a controller may let escape. Called from a request (before the
 * caller's first `await`), the work runs on a child of the request's fiber: its span, log
 * annotations and fiber refs, and interrupted with it (the request's timeout).
 *
 * @example
 * const User = Schema.Struct({ id: Schema.String, name: Schema.String });
 * type User = typeof User.Type;
 *
 * // OAuthModule's callback handler: with `session`, the app user is the session's data
 * @Injectable()
 * class SignInHandler implements OAuthCallbackHandler<User> {
 *   constructor(private readonly accounts: AccountsService<User>) {}
 *
 *   handle(result: OAuthCallbackResult, provider: ProviderName): Promise<User> {
 *     return this.accounts.signIn(provider, result.user);
 *   }
 * }
 *
 * @since 0.1.0
 * @category classic
 */
export class AccountsService<A extends AppUser = AppUser> {
  /**
   * A classic face over the Effect `Accounts` service `api`. `scope` (the one its store was built
   * in) is closed when the app closes.
   */
  constructor(
    readonly api: AccountsApi<A>,
    private readonly scope?: Scope.CloseableScope,
  ) {}

  /** The user signing in with `provider`'s `profile` (see `AccountsApi.signIn`). */
  signIn(provider: string, profile: OAuthUser, tokens?: ClassicTokens): Promise<A> {
    return run(this.api.signIn(provider, profile, redacted(tokens)));
  }

  /** Links `provider`'s account to the signed-in user `userId` (see `AccountsApi.link`). */
  link(
    userId: string,
    provider: string,
    profile: OAuthUser,
    tokens?: ClassicTokens,
  ): Promise<LinkedAccount> {
    return run(this.api.link(userId, provider, profile, redacted(tokens)));
  }

  /** The user's linked accounts, oldest first. */
  accounts(userId: string): Promise<ReadonlyArray<LinkedAccount>> {
    return run(this.api.accounts(userId));
  }

  /** Unlinks the user's account of `provider`; never the last one (409). */
  unlink(userId: string, provider: string): Promise<void> {
    return run(this.api.unlink(userId, provider));
  }

  /** The user's record, `undefined` for an unknown id. */
  user(userId: string): Promise<A | undefined> {
    return run(Effect.map(this.api.user(userId), Option.getOrUndefined));
  }

  /** Replaces the record of the user `user.id`. */
  updateUser(user: A): Promise<void> {
    return run(this.api.updateUser(user));
  }

  /** A valid access token of the user's `provider` account (see `AccountsApi.providerToken`). */
  providerToken(userId: string, provider: string): Promise<string> {
    return run(Effect.map(this.api.providerToken(userId, provider), Redacted.value));
  }

  /** Releases the store (its database connections) when the app closes. */
  onModuleDestroy(): Effect.Effect<void> {
    return this.scope === undefined ? Effect.void : Scope.close(this.scope, Exit.void);
  }
}
