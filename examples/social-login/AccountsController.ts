// `POST /accounts/:provider/unlink`: the page's "Unlink" buttons. Never the last account
// (Accounts refuses it). Refused cross-site (403) as the logout is: the session cookie is
// SameSite=Lax, but a sibling subdomain is the same site, and the check costs nothing.
import {
  Controller,
  Inject,
  Param,
  Post,
  Redirect,
  SameOriginGuard,
  UseGuards,
} from "effect-strata";
import { AccountsHttpError, AccountsService } from "effect-strata/accounts";
import { CurrentUser, SessionGuard } from "effect-strata/session";
import type { AppUser } from "./AppUser.js";
import type { SignedInUser } from "./MeController.js";

@Controller("accounts")
@UseGuards(SameOriginGuard, SessionGuard) // 403 cross-site, 401 without a valid session
export class AccountsController {
  constructor(@Inject(AccountsService) private readonly accounts: AccountsService<AppUser>) {}

  /** Unlinks the signed-in user's account of `provider`, then back home (with the error, if any). */
  @Post(":provider/unlink")
  @Redirect("/", 303)
  async unlink(@CurrentUser() user: SignedInUser, @Param("provider") provider: string) {
    try {
      await this.accounts.unlink(user.id, provider);
      return undefined;
    } catch (error) {
      // `last_account` (409) or `account_not_linked` (404): shown on the page.
      if (error instanceof AccountsHttpError && error.httpStatus < 500) {
        return { url: `/?error=${error.code}`, statusCode: 303 };
      }
      throw error;
    }
  }
}
