/**
 * The callback-handler hook of the classic face.
 *
 * @since 0.1.0
 */
import type { OAuthCallbackResult } from "./OAuthResult.js";
import type { ProviderName } from "./SupportedProvider.js";

/**
 * Turns an OAuth result into the application's own response, e.g. an application token and
 * a user record. Register the class as a provider in an application module (it is resolved
 * through dependency injection, so it may inject services) and pass it as `callbackHandler`.
 * The built-in callback route sends what `handle` returns as JSON (or redirects to
 * `successRedirect`); a returned `HttpServerResponse` or sent `StrataResponse` is sent as is.
 *
 * @example
 * declare class UsersService { // a provider of the app
 *   upsert(provider: ProviderName, profile: OAuthUser): Promise<{ user: AppUser; isNew: boolean }>;
 *   sign(user: AppUser): string;
 * }
 *
 * @Injectable()
 * class IssueAppToken implements OAuthCallbackHandler {
 *   constructor(private readonly users: UsersService) {}
 *   async handle(result: OAuthCallbackResult, provider: ProviderName) {
 *     const { user, isNew } = await this.users.upsert(provider, result.user);
 *     return { token: this.users.sign(user), user, isNewUser: isNew };
 *   }
 * }
 *
 * @since 0.1.0
 * @category classic
 */
export interface OAuthCallbackHandler<T = unknown> {
  /** Handles a successful sign-in: what it returns is what the callback route answers. */
  handle(result: OAuthCallbackResult, provider: ProviderName): T | Promise<T>;
  /**
   * Linking, with `OAuthModule`'s `session`: a callback started with `GET
   * /auth/:provider?intent=link` (by a signed-in user) calls this instead of `handle`, with the
   * session data of the signed-in user (`user`, typed as your session Schema's), to link the
   * provider account to that user (`AccountsService.link`); its value is the session data from
   * then on. Without it, `?intent=link` is refused (400 `invalid_intent`). A thrown
   * `AccountsHttpError` answers its status and code (409 `account_conflict`), or redirects to
   * `errorRedirect` with `error=<code>`.
   */
  link?(result: OAuthCallbackResult, provider: ProviderName, user: unknown): T | Promise<T>;
}
