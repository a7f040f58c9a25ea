// `GET /`: the sign-in buttons, or the signed-in user (the session, read by `@CurrentUser`)
// with the provider accounts linked to them (read from Accounts) and a button to link each
// other provider. Signing out is the built-in `POST /auth/logout`, a form on the page.
import { Controller, Get, Inject, Query } from "effect-strata";
import { AccountsService } from "effect-strata/accounts";
import { CurrentUser } from "effect-strata/session";
import type { AppUser } from "./AppUser.js";
import { type ProviderButton, signedInPage, signedOutPage } from "./HomePage.js";
import type { SignedInUser } from "./MeController.js";

/** What the home page shows: the providers, and the origins pictures may come from. */
export interface HomeOptions {
  readonly providers: ReadonlyArray<ProviderButton>;
  readonly imageOrigins: ReadonlyArray<string>;
}

/** The injection token of {@link HomeOptions}. */
export const HOME_OPTIONS = Symbol("HOME_OPTIONS");

@Controller()
export class HomeController {
  constructor(
    @Inject(HOME_OPTIONS) private readonly options: HomeOptions,
    @Inject(AccountsService) private readonly accounts: AccountsService<AppUser>,
  ) {}

  @Get()
  async home(
    @CurrentUser({ optional: true }) user: SignedInUser | undefined,
    @Query("error") error?: unknown,
  ) {
    const code = typeof error === "string" ? error : undefined;
    if (user === undefined) {
      return signedOutPage(this.options.providers, code, this.options.imageOrigins);
    }
    const linked = await this.accounts.accounts(user.id);
    return signedInPage(user, linked, this.options.providers, code, this.options.imageOrigins);
  }
}
