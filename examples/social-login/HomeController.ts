// `GET /`: the sign-in buttons, or the signed-in user; `POST /logout` ends the session.
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { Controller, Get, Headers, Inject, Post, Query } from "strata";
import { type ProviderButton, signedInPage, signedOutPage } from "./HomePage.js";
import { clearSession, readSession } from "./Session.js";
import { TokenService } from "./TokenService.js";
import { UsersService } from "./UsersService.js";

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
    @Inject(UsersService) private readonly users: UsersService,
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(HOME_OPTIONS) private readonly options: HomeOptions,
  ) {}

  @Get()
  home(@Headers("cookie") cookie?: string, @Query("error") error?: unknown) {
    const token = readSession(cookie);
    const claims = token === undefined ? undefined : this.tokens.verify(token);
    const user = claims === undefined ? undefined : this.users.find(Number(claims.sub));
    if (user === undefined || token === undefined) {
      const page = signedOutPage(
        this.options.providers,
        typeof error === "string" ? error : undefined,
        this.options.imageOrigins,
      );
      return token === undefined ? page : clearSession(page);
    }
    return signedInPage(user, token, this.options.imageOrigins);
  }

  @Post("logout")
  logout() {
    return clearSession(HttpServerResponse.redirect("/", { status: 303 }));
  }
}
