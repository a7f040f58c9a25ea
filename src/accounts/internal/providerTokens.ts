/**
 * Provider tokens kept with their account: sealed at rest (AES-256-GCM under a key derived for
 * this purpose, each token bound to its account), and refreshed once per account at a time
 * (SECURITY.md 32): in this process, concurrent callers share one refresh; across instances on
 * one database, a claim stored with the account lets one refresh while the others wait for
 * its tokens.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock";
import * as Deferred from "effect/Deferred";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as FiberId from "effect/FiberId";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import type * as Scope from "effect/Scope";
import * as Sealer from "../../crypto/Sealer.js";
import { StartupError } from "../../di/StartupError.js";
import { OAuthProviders } from "../../oauth/OAuthProviders.js";
import type { OAuthTokens } from "../../oauth/OAuthResult.js";
import type {
  AccountRecord,
  AccountStoreError,
  AccountStoreService,
  StoredTokens,
} from "../AccountStore.js";
import { AccountNotLinked, ProviderTokenUnavailable } from "../AccountsError.js";
import type { ProviderTokenOptions, RefreshProviderToken } from "../AccountsOptions.js";

/** The sealing purpose of stored provider tokens: never a cookie's. */
const PURPOSE: Sealer.SealingPurpose = {
  salt: "strata/accounts",
  info: "provider-token/v1",
  aad: "strata/accounts/provider-token/v1",
};

/** An access token this close to its expiry counts as expired. */
const EXPIRY_MARGIN = Duration.toMillis(Duration.minutes(1));
/** How long a refresh claim holds: past the providers' 10 s timeout, so one ends first. */
const CLAIM = Duration.toMillis(Duration.seconds(30));
/** How often an instance waiting for another's refresh looks for its tokens. */
const POLL = Duration.millis(100);

/** What `providerToken` may fail with. */
export type ProviderTokenError = AccountNotLinked | ProviderTokenUnavailable | AccountStoreError;

/** Provider tokens: sealing for the store, and valid access tokens out of it. */
export interface ProviderTokens {
  /**
   * `tokens` sealed for the account `(provider, subject)`; a refresh token kept from
   * `previous` when the new answer has none (google sends one at the first consent only).
   */
  readonly seal: (
    provider: string,
    subject: string,
    tokens: OAuthTokens,
    previous: StoredTokens | undefined,
  ) => Effect.Effect<StoredTokens>;
  /** A valid access token of `account`, refreshed when it is about to expire. */
  readonly accessToken: (
    account: AccountRecord,
  ) => Effect.Effect<Redacted.Redacted<string>, ProviderTokenError>;
}

/** The key of an account, for the refreshes in flight. */
const keyOf = (account: AccountRecord) => `${account.provider}\u0000${account.subject}`;

/** The refresh of `options`, or that of the `OAuthProviders` in context. */
const refresherOf = (
  options: ProviderTokenOptions,
): Effect.Effect<(provider: string) => Option.Option<RefreshProviderToken>> =>
  options.refresh !== undefined
    ? Effect.succeed(() => Option.some(options.refresh as RefreshProviderToken))
    : Effect.map(
        Effect.serviceOption(OAuthProviders),
        (providers) => (name: string) =>
          Option.flatMap(providers, (registry) =>
            Option.flatMap(registry.get(name), (provider) => {
              const refresh = provider.refreshToken;
              return refresh === undefined
                ? Option.none()
                : Option.some<RefreshProviderToken>((_, token, scopes) => refresh(token, scopes));
            }),
          ),
      );

/**
 * Provider tokens under `options`, on `store`; refreshes run in `scope` (a caller that gives up
 * does not cancel the refresh others wait for).
 */
export const make = (
  options: ProviderTokenOptions,
  store: AccountStoreService,
  scope: Scope.Scope,
): Effect.Effect<ProviderTokens, StartupError> =>
  Effect.gen(function* () {
    const secret = Redacted.isRedacted(options.secret)
      ? options.secret
      : Redacted.make(options.secret);
    if (Redacted.value(secret).length < Sealer.MIN_SECRET_LENGTH) {
      return yield* new StartupError({
        message: `Accounts: the tokens secret must have at least ${Sealer.MIN_SECRET_LENGTH} characters; generate one with \`openssl rand -base64 32\``,
      });
    }
    const sealer = yield* Sealer.make(Sealer.deriveKey(secret, PURPOSE), PURPOSE);
    const refresherFor = yield* refresherOf(options);
    const inFlight = new Map<
      string,
      Deferred.Deferred<Redacted.Redacted<string>, ProviderTokenError>
    >();

    // Each sealed token names its account: one copied into another account's row never opens.
    const sealOne = (provider: string, subject: string, token: Redacted.Redacted<string>) =>
      sealer.seal(JSON.stringify([provider, subject, Redacted.value(token)]));
    const openOne = (account: AccountRecord, sealed: string | undefined) => {
      const plain = sealed === undefined ? undefined : sealer.open(sealed);
      if (plain === undefined) return undefined;
      const [provider, subject, token] = JSON.parse(plain) as [string, string, string];
      return provider === account.provider && subject === account.subject
        ? Redacted.make(token)
        : undefined;
    };

    const seal = (
      provider: string,
      subject: string,
      tokens: OAuthTokens,
      previous: StoredTokens | undefined,
    ) =>
      Effect.gen(function* () {
        const accessToken = yield* sealOne(provider, subject, tokens.accessToken);
        const refreshToken =
          tokens.refreshToken === undefined
            ? previous?.refreshToken
            : yield* sealOne(provider, subject, tokens.refreshToken);
        return {
          accessToken,
          refreshToken,
          expiresAt: tokens.expiresAt?.getTime(),
          scopes: tokens.scopes ?? previous?.scopes,
        } satisfies StoredTokens;
      });

    const unavailable = (account: AccountRecord, reason: ProviderTokenUnavailable["reason"]) =>
      new ProviderTokenUnavailable({ provider: account.provider, reason });

    /** The stored access token when it is still valid at `now`. */
    const valid = (account: AccountRecord, now: number) => {
      const tokens = account.tokens;
      if (tokens === undefined) return undefined;
      if (tokens.expiresAt !== undefined && tokens.expiresAt - EXPIRY_MARGIN <= now) {
        return undefined;
      }
      return openOne(account, tokens.accessToken);
    };

    /** The account as stored now (another instance may have refreshed it, or unlinked it). */
    const reread = (account: AccountRecord) =>
      Effect.flatMap(store.findAccount(account.userId, account.provider), (found) =>
        Option.isSome(found) && found.value.subject === account.subject
          ? Effect.succeed(found.value)
          : Effect.fail(new AccountNotLinked({ provider: account.provider })),
      );

    /** The refresh itself, under the claim `until`: the new access token, stored. */
    const refreshClaimed = (claimed: AccountRecord, until: number) =>
      Effect.gen(function* () {
        const account = yield* reread(claimed);
        const stillValid = valid(account, yield* Clock.currentTimeMillis);
        if (stillValid !== undefined) {
          yield* store.releaseRefresh(account.provider, account.subject, until, undefined);
          return stillValid;
        }
        const refreshToken = openOne(account, account.tokens?.refreshToken);
        const refresh = refresherFor(account.provider);
        if (refreshToken === undefined || Option.isNone(refresh)) {
          return yield* unavailable(account, "expired");
        }
        const fresh = yield* refresh
          .value(account.provider, refreshToken, account.tokens?.scopes)
          .pipe(
            Effect.mapError((error) =>
              unavailable(
                account,
                error._tag === "CodeRejected" ? "refresh-rejected" : "refresh-failed",
              ),
            ),
          );
        const sealed = yield* seal(account.provider, account.subject, fresh, account.tokens);
        yield* store.releaseRefresh(account.provider, account.subject, until, sealed);
        return fresh.accessToken;
      }).pipe(
        // A failed refresh ends the claim and changes nothing else: the account stays linked.
        Effect.tapError(() =>
          Effect.ignore(store.releaseRefresh(claimed.provider, claimed.subject, until, undefined)),
        ),
      );

    /**
     * Claims the refresh and runs it; while another instance holds the claim, waits for its
     * tokens (or for its claim to end or expire, then claims again).
     */
    const refreshOnce = (
      account: AccountRecord,
    ): Effect.Effect<Redacted.Redacted<string>, ProviderTokenError> =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis;
        const until = now + CLAIM;
        if (yield* store.claimRefresh(account.provider, account.subject, now, until)) {
          return yield* refreshClaimed(account, until);
        }
        yield* Effect.sleep(POLL);
        const current = yield* reread(account);
        const refreshed = valid(current, yield* Clock.currentTimeMillis);
        return refreshed ?? (yield* refreshOnce(current));
      });

    /** One refresh per account in this process: later callers wait for the first one's. */
    const shared = (account: AccountRecord) =>
      Effect.suspend(() => {
        const key = keyOf(account);
        const running = inFlight.get(key);
        if (running !== undefined) return Deferred.await(running);
        // Made and registered without yielding: no second refresh can start in between.
        const deferred = Deferred.unsafeMake<Redacted.Redacted<string>, ProviderTokenError>(
          FiberId.none,
        );
        inFlight.set(key, deferred);
        return refreshOnce(account).pipe(
          Effect.exit,
          Effect.flatMap((exit) => Deferred.done(deferred, exit)),
          Effect.ensuring(Effect.sync(() => inFlight.delete(key))),
          Effect.forkIn(scope),
          Effect.zipRight(Deferred.await(deferred)),
        );
      });

    const accessToken = (account: AccountRecord) =>
      Effect.gen(function* () {
        if (account.tokens === undefined) return yield* unavailable(account, "not-stored");
        const current = valid(account, yield* Clock.currentTimeMillis);
        return current ?? (yield* shared(account));
      });

    return { seal, accessToken } satisfies ProviderTokens;
  });
