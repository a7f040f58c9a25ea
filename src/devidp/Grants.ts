/**
 * What the development identity provider remembers between requests: authorization requests
 * waiting on the sign-in page, authorization codes (single-use, short-lived), and the access
 * and refresh tokens issued for them. Time comes from the Effect `Clock` (tests use
 * `TestClock`), randomness from `SecureRandom`.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import { randomToken } from "../crypto/SecureRandom.js";
import type { SupportedProvider } from "../oauth/SupportedProvider.js";
import type { DevUser } from "./DevUser.js";

/**
 * A validated authorization request, waiting for a user to be chosen.
 *
 * @since 0.1.0
 * @category grants
 */
export interface PendingAuthorization {
  readonly provider: SupportedProvider;
  readonly clientId: string;
  /** The registered redirect URI the browser goes back to. */
  readonly redirectUri: string;
  /** `true` when the request named `redirect_uri` (the token request must then repeat it). */
  readonly redirectUriSent: boolean;
  readonly state?: string;
  readonly scopes: ReadonlyArray<string>;
  /** The S256 PKCE challenge, when one was sent. */
  readonly codeChallenge?: string;
  /** The OpenID Connect `nonce`, echoed in the ID token. */
  readonly nonce?: string;
  /** A refresh token was asked for (google `access_type=offline`, a scope elsewhere). */
  readonly offline: boolean;
  /** The Entra tenant of the request path (microsoft). */
  readonly tenant?: string;
}

/**
 * An authorization granted by a user: what a code stands for.
 *
 * @since 0.1.0
 * @category grants
 */
export interface CodeGrant extends PendingAuthorization {
  readonly user: DevUser;
}

/**
 * What an access or refresh token stands for.
 *
 * @since 0.1.0
 * @category grants
 */
export interface TokenGrant {
  readonly provider: SupportedProvider;
  readonly clientId: string;
  readonly user: DevUser;
  readonly scopes: ReadonlyArray<string>;
  /** The Entra tenant (microsoft). */
  readonly tenant?: string;
}

/**
 * Why a code cannot be redeemed: never issued, older than its lifetime, or already used
 * (the tokens issued for it are then revoked, RFC 6749 4.1.2).
 *
 * @since 0.1.0
 * @category grants
 */
export type CodeProblem = "unknown" | "expired" | "replayed";

/**
 * The store of grants.
 *
 * @since 0.1.0
 * @category grants
 */
export interface Grants {
  /** Keeps an authorization request for the sign-in page; returns its id. */
  readonly begin: (pending: PendingAuthorization) => Effect.Effect<string>;
  /** Takes a waiting request (once): the sign-in page's answer. */
  readonly take: (id: string) => Effect.Effect<Option.Option<PendingAuthorization>>;
  /** Issues a code for a granted authorization. */
  readonly issueCode: (grant: CodeGrant) => Effect.Effect<string>;
  /** Redeems a code: the first attempt consumes it, whatever follows. */
  readonly redeemCode: (code: string) => Effect.Effect<Either.Either<CodeGrant, CodeProblem>>;
  /**
   * Issues an access token valid for `lifetime` (forever without one), recorded against the
   * code it was issued for, if any.
   */
  readonly issueAccessToken: (
    grant: TokenGrant,
    lifetime: Duration.DurationInput | undefined,
    code?: string,
  ) => Effect.Effect<string>;
  /** Issues a refresh token, recorded against the code it was issued for, if any. */
  readonly issueRefreshToken: (grant: TokenGrant, code?: string) => Effect.Effect<string>;
  /** The grant of a live access token issued by `provider`. */
  readonly accessGrant: (
    token: string,
    provider: SupportedProvider,
  ) => Effect.Effect<Option.Option<TokenGrant>>;
  /** The grant of a refresh token issued by `provider`. */
  readonly refreshGrant: (
    token: string,
    provider: SupportedProvider,
  ) => Effect.Effect<Option.Option<TokenGrant>>;
  /** Forgets a token (access or refresh). */
  readonly revoke: (token: string) => Effect.Effect<void>;
}

/**
 * How long things live.
 *
 * @since 0.1.0
 * @category grants
 */
export interface GrantLifetimes {
  /** An authorization code (default 60 seconds). */
  readonly code?: Duration.DurationInput;
  /** An authorization request waiting on the sign-in page (default 10 minutes). */
  readonly signIn?: Duration.DurationInput;
}

interface Timed<A> {
  readonly value: A;
  readonly expiresAt: number;
}

interface StoredCode extends Timed<CodeGrant> {
  used: boolean;
  readonly tokens: Set<string>;
}

/**
 * A store of grants, its state in this closure.
 *
 * @since 0.1.0
 * @category grants
 */
export const makeGrants = (lifetimes: GrantLifetimes = {}): Effect.Effect<Grants> =>
  Effect.sync(() => {
    const codeTtl = Duration.toMillis(Duration.decode(lifetimes.code ?? "60 seconds"));
    const signInTtl = Duration.toMillis(Duration.decode(lifetimes.signIn ?? "10 minutes"));
    const pending = new Map<string, Timed<PendingAuthorization>>();
    const codes = new Map<string, StoredCode>();
    const access = new Map<string, Timed<TokenGrant>>();
    const refresh = new Map<string, TokenGrant>();

    /** Drops what expired; used codes are kept one more lifetime to recognise replays. */
    const sweep = (now: number) => {
      for (const [id, entry] of pending) if (entry.expiresAt <= now) pending.delete(id);
      for (const [code, entry] of codes) if (entry.expiresAt + codeTtl <= now) codes.delete(code);
      for (const [token, entry] of access) if (entry.expiresAt <= now) access.delete(token);
    };

    const live = <A>(entry: Timed<A> | undefined, now: number): Option.Option<A> =>
      entry !== undefined && entry.expiresAt > now ? Option.some(entry.value) : Option.none();

    const record = (code: string | undefined, token: string) => {
      if (code !== undefined) codes.get(code)?.tokens.add(token);
    };

    return {
      begin: (request) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis;
          sweep(now);
          const id = yield* randomToken(24);
          pending.set(id, { value: request, expiresAt: now + signInTtl });
          return id;
        }),
      take: (id) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const entry = pending.get(id);
          pending.delete(id);
          return live(entry, now);
        }),
      issueCode: (grant) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis;
          sweep(now);
          const code = yield* randomToken(32);
          codes.set(code, {
            value: grant,
            expiresAt: now + codeTtl,
            used: false,
            tokens: new Set(),
          });
          return code;
        }),
      redeemCode: (code) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const entry = codes.get(code);
          if (entry === undefined) return Either.left("unknown" as const);
          if (entry.used) {
            for (const token of entry.tokens) {
              access.delete(token);
              refresh.delete(token);
            }
            return Either.left("replayed" as const);
          }
          entry.used = true;
          return entry.expiresAt > now
            ? Either.right(entry.value)
            : Either.left("expired" as const);
        }),
      issueAccessToken: (grant, lifetime, code) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis;
          const token = yield* randomToken(32);
          const expiresAt =
            lifetime === undefined ? Number.POSITIVE_INFINITY : now + Duration.toMillis(lifetime);
          access.set(token, { value: grant, expiresAt });
          record(code, token);
          return token;
        }),
      issueRefreshToken: (grant, code) =>
        Effect.map(randomToken(32), (token) => {
          refresh.set(token, grant);
          record(code, token);
          return token;
        }),
      accessGrant: (token, provider) =>
        Effect.map(Clock.currentTimeMillis, (now) =>
          Option.filter(live(access.get(token), now), (grant) => grant.provider === provider),
        ),
      refreshGrant: (token, provider) =>
        Effect.sync(() =>
          Option.filter(
            Option.fromNullable(refresh.get(token)),
            (grant) => grant.provider === provider,
          ),
        ),
      revoke: (token) =>
        Effect.sync(() => {
          access.delete(token);
          refresh.delete(token);
        }),
    } satisfies Grants;
  });
