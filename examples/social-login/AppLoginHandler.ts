// What the built-in callback route does after a successful sign-in: the app's user of the
// provider account, found or created by Accounts (effect-strata/accounts). What it returns is the
// session's data: the routes (`session: ...` in app.ts) sign the browser in with a new session
// cookie and send it home. A callback started with `?intent=link` calls `link` instead: the
// provider account joins the signed-in user.
import { Inject, Injectable } from "effect-strata";
import { AccountsService } from "effect-strata/accounts";
import type {
  OAuthCallbackHandler,
  OAuthCallbackResult,
  SupportedProvider,
} from "effect-strata/oauth";
import type { AppUser } from "./AppUser.js";
import type { SignedInUser } from "./MeController.js";

/** The app's user of a sign-in (created on the first one), or a link to the signed-in user. */
@Injectable()
export class AppLoginHandler implements OAuthCallbackHandler<SignedInUser> {
  constructor(@Inject(AccountsService) private readonly accounts: AccountsService<AppUser>) {}

  /** The session of the user of `provider`'s account (a new user on its first sign-in). */
  async handle(result: OAuthCallbackResult, provider: SupportedProvider): Promise<SignedInUser> {
    // Provider tokens are not kept: AccountsModule's `tokens` option would keep them sealed.
    const user = await this.accounts.signIn(provider, result.user);
    return { ...user, provider };
  }

  /**
   * Links `provider`'s account to the signed-in `user`, who stays signed in. An account linked
   * to another user is a 409 `account_conflict` (the page shows it, `?error=account_conflict`).
   */
  async link(
    result: OAuthCallbackResult,
    provider: SupportedProvider,
    user: SignedInUser,
  ): Promise<SignedInUser> {
    await this.accounts.link(user.id, provider, result.user);
    return user;
  }
}
