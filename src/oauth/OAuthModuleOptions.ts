/**
 * The options of `OAuthModule.forRoot`.
 *
 * @since 0.1.0
 */
import type * as Duration from "effect/Duration";
import type { Type } from "../di/Token.js";
import type { OAuthCallbackHandler } from "./OAuthCallbackHandler.js";
import type { OAuthProvidersConfig, Secret } from "./OAuthConfig.js";
import type { OAuthRoutesOptions, OAuthRoutesSession } from "./OAuthRoutes.js";
import type { RedisTransactionStoreOptions } from "./RedisTransactionStore.js";
import type { SupportedProvider } from "./SupportedProvider.js";

/**
 * What `OAuthModule.forRoot` takes: the spec's `providers`, `callbackHandler` and
 * `defaultScopes`, plus Strata's settings for the built-in routes and outbound calls.
 *
 * @since 0.1.0
 * @category classic
 */
export interface OAuthModuleOptions {
  /** Per-provider configuration; only the configured providers are served. */
  readonly providers: OAuthProvidersConfig;
  /**
   * Called by the built-in callback route (and `executeCallback`) after a successful
   * callback. The class must be a provider of some module of the app; it is resolved through
   * dependency injection.
   */
  readonly callbackHandler?: Type<OAuthCallbackHandler>;
  /** Replaces a provider's default scopes (the full list). */
  readonly defaultScopes?: { readonly [P in SupportedProvider]?: ReadonlyArray<string> };
  /** The built-in routes' options, or `false` to serve no routes (custom flows only). */
  readonly routes?: false | Omit<OAuthRoutesOptions, "onSuccess" | "session">;
  /**
   * Signs the user in with a session at every successful callback (import
   * `SessionModule.forRoot` too), then redirects to `successRedirect` or `/`; adds
   * `GET /auth/session` and `POST /auth/logout`. The session data is what `callbackHandler`
   * returns (the app's user, matching the session Schema), or without a handler the
   * profile's `OAuthSessionUser`. An object also sets the logout's `origins` and
   * `logoutRedirect`. A handler with a `link` method enables linking (`?intent=link`).
   */
  readonly session?: boolean | Omit<OAuthRoutesSession, "from" | "link">;
  /**
   * The secret the transaction cookie is sealed with (at least 32 characters). Without it, a
   * random per-process key is used and a warning logged (single instance only).
   */
  readonly sealingKey?: Secret;
  /**
   * Where transactions wait for their callback: `"cookie"` (default, sealed in the cookie,
   * single-use within the process), `"memory"` (server-side in this process) or
   * `{ redis: ioredisOptions }` (server-side in a Redis shared by every instance, single-use
   * across all of them; see `RedisTransactionStore.layer`). The server-side stores put only a
   * random id in the cookie and need no sealing key.
   */
  readonly transactionStore?:
    | "cookie"
    | "memory"
    | { readonly redis: RedisTransactionStoreOptions };
  /**
   * The most transactions one client may hold in the transaction store (default 1 000): the
   * states its callbacks took (`"cookie"`) or the transactions it started and has not completed
   * (`"memory"`, Redis). Past it, that client alone gets 429 `too_many_transactions` with
   * `Retry-After`, so no one client can fill the store for everybody (SECURITY.md 42). A client
   * is its address, as the rate limiter counts it (`routes.trustProxy`, `routes.ipv6Subnet`).
   */
  readonly maxTransactionsPerClient?: number;
  /** Timeout of every outbound provider call, token exchange included (default 10 s). */
  readonly timeout?: Duration.DurationInput;
  /** Largest provider response read (profile, token answer, key set), in bytes (default 1 MB). */
  readonly maxProfileBytes?: number;
  /** The `User-Agent` of every provider request. */
  readonly userAgent?: string;
  /** Makes `OAuthService` visible to every module of the app. */
  readonly global?: boolean;
}
