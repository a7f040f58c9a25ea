// What the built-in callback route does after a successful sign-in: find or create the
// user, issue the app's token into the session cookie, and send the browser home.
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { Inject, Injectable } from "strata";
import type { OAuthCallbackHandler, OAuthCallbackResult, SupportedProvider } from "strata/oauth";
import { setSession } from "./Session.js";
import { TokenService } from "./TokenService.js";
import { UsersService } from "./UsersService.js";

/** Signs the user in: a session cookie and a 303 to `/` (no token in any URL). */
@Injectable()
export class AppLoginHandler implements OAuthCallbackHandler {
  constructor(
    @Inject(UsersService) private readonly users: UsersService,
    @Inject(TokenService) private readonly tokens: TokenService,
  ) {}

  handle(result: OAuthCallbackResult, provider: SupportedProvider) {
    const { user } = this.users.upsert(provider, result);
    // Provider tokens stay here: store them encrypted if the app needs them later.
    return setSession(HttpServerResponse.redirect("/", { status: 303 }), this.tokens.issue(user));
  }
}
