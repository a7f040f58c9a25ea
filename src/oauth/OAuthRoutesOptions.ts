/**
 * The options of the built-in routes (`OAuthRoutes.layer(options)`, `OAuthModule.forRoot`'s
 * `routes`): where they live, which redirects they accept, what runs after a sign-in and how
 * it becomes a session.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect";
import type * as TrustProxy from "../middleware/TrustProxy.js";
import type { OAuthSignIn } from "./OAuthResult.js";
import type { ProviderName } from "./SupportedProvider.js";

/**
 * What runs after a successful callback. Its value is sent as JSON (or the browser goes to
 * `successRedirect` when one was given); a platform `HttpServerResponse` or a sent
 * `StrataResponse` is sent as is (for instance a session cookie and a redirect), except that
 * its `Location` must pass the redirect policy (a path or a configured origin) and is sent
 * normalised; a refused one is a failed handler.
 *
 * `R` is what it needs from context, `A` what it succeeds with, `E` how it fails (an
 * `HttpError` answers its own status, any other failure a 500). Leave them to inference
 * (`satisfies OAuthSuccessHandler<Users>`) and `A` and `E` stay the handler's own.
 *
 * @since 0.1.0
 * @category routes
 */
export type OAuthSuccessHandler<R = never, A = unknown, E = unknown> = (
  signIn: OAuthSignIn,
  provider: ProviderName,
) => Effect.Effect<A, E, R>;

/**
 * Sign-in with a session (`OAuthRoutesOptions.session`): the callback creates a session (the
 * app's `Session` service, which must be provided) and redirects; `GET /auth/session` and
 * `POST /auth/logout` are added.
 *
 * @since 0.1.0
 * @category routes
 */
export interface OAuthRoutesSession<R = never, E = unknown> {
  /**
   * The session data of a sign-in, matching the app's session Schema (data that does not is a
   * failed handler). Default: the profile as an `OAuthSessionUser` (`Session.make(OAuthSessionUser)`).
   */
  readonly from?: (signIn: OAuthSignIn, provider: ProviderName) => Effect.Effect<unknown, E, R>;
  /**
   * Enables linking: a callback started with `?intent=link` links the provider account of
   * `signIn` to the signed-in user whose session data is `current` (for instance with
   * `Accounts.link`), and its value is the session data from then on (a new session cookie).
   * A failure that names its answer (`httpStatus`, `code`, `publicMessage`: `AccountConflict`
   * is a 409 `account_conflict`) is answered with it, or redirected to `errorRedirect` with
   * `error=<code>`. Without it, `?intent=link` is refused (400 `invalid_intent`).
   */
  readonly link?: (signIn: OAuthSignIn, current: unknown) => Effect.Effect<unknown, E, R>;
  /**
   * Origins a `POST /auth/logout` and a link start (`?intent=link`) may come from besides the
   * origins of the providers' redirect URIs (the app's own). Other requests are refused (403)
   * when `Sec-Fetch-Site` says another site, or, without it, when they carry another `Origin`
   * (see `SameOrigin.isCrossSite`).
   */
  readonly origins?: ReadonlyArray<string>;
  /**
   * Where a browser lands after `POST /auth/logout` (a 303; a path or an allowed redirect
   * origin). Default: none, a 204 (for `fetch`); give one for an HTML form.
   */
  readonly logoutRedirect?: string;
}

/**
 * Options of the built-in routes.
 *
 * @since 0.1.0
 * @category routes
 */
export interface OAuthRoutesOptions<R = never, A = unknown, E = unknown, RS = never, ES = never> {
  /** Where the routes live (default `/auth`: `/auth/:provider`, `/auth/:provider/callback`). */
  readonly path?: `/${string}`;
  /** Origins an absolute `successRedirect`/`errorRedirect` may point to (relative paths always may). */
  readonly allowedRedirectOrigins?: ReadonlyArray<string>;
  /**
   * `Secure` and the `__Host-` prefix on the transaction cookie. `"auto"` (default): when the
   * provider's configured redirect URI is https.
   */
  readonly secureCookie?: boolean | "auto";
  /** Ask for refresh tokens (all providers, or those listed). */
  readonly offline?: boolean | ReadonlyArray<ProviderName>;
  /**
   * Runs after a successful callback (and after the session is created), before responding.
   */
  readonly onSuccess?: OAuthSuccessHandler<R, A, E>;
  /**
   * Signs the user in with a session at every successful callback, then (without an
   * `onSuccess` response) redirects to `successRedirect`, `/` by default; adds
   * `GET /auth/session` and `POST /auth/logout`. `session: {}` keeps the profile.
   */
  readonly session?: OAuthRoutesSession<RS, ES>;
  /**
   * Which `X-Forwarded-For` entry is the client whose transactions are counted against the
   * store's `maxPerClient` (SECURITY.md 42), as for the rate limiter: default false (the
   * socket's peer), or the number of proxies in front of the app, or their addresses and CIDR
   * ranges (see `TrustProxy`). `true` is refused at startup: any client could then pick its own key.
   */
  readonly trustProxy?: TrustProxy.TrustProxy;
  /**
   * IPv6 clients are counted per network of this prefix length (default 64, as the rate
   * limiter); `false` counts each address.
   */
  readonly ipv6Subnet?: number | false;
}
