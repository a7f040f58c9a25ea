// `GET /`: the sign-in buttons, or the signed-in user (the session, read by `@CurrentUser`).
// Signing out is the built-in `POST /auth/logout`, a form on the page.
import { Controller, Get, Inject, Query } from "strata";
import { CurrentUser } from "strata/session";
import { type ProviderButton, signedInPage, signedOutPage } from "./HomePage.js";
import type { AppUser } from "./UsersService.js";

/** What the home page shows: the providers, and the origins pictures may come from. */
export interface HomeOptions {
  readonly providers: ReadonlyArray<ProviderButton>;
  readonly imageOrigins: ReadonlyArray<string>;
}

/** The injection token of {@link HomeOptions}. */
export const HOME_OPTIONS = Symbol("HOME_OPTIONS");

@Controller()
export class HomeController {
  constructor(@Inject(HOME_OPTIONS) private readonly options: HomeOptions) {}

  @Get()
  home(
    @CurrentUser({ optional: true }) user: AppUser | undefined,
    @Query("error") error?: unknown,
  ) {
    return user === undefined
      ? signedOutPage(
          this.options.providers,
          typeof error === "string" ? error : undefined,
          this.options.imageOrigins,
        )
      : signedInPage(user, this.options.imageOrigins);
  }
}
