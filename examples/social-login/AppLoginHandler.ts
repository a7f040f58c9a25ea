// What the built-in callback route does after a successful sign-in: find or create the user.
// The user it returns is the session's data: the routes (`session: ...` in app.ts) sign the
// browser in with a new session cookie and send it home.
import { Inject, Injectable } from "strata";
import type { OAuthCallbackHandler, OAuthCallbackResult, SupportedProvider } from "strata/oauth";
import { type AppUser, UsersService } from "./UsersService.js";

/** The app's user of a sign-in, created on the first one. */
@Injectable()
export class AppLoginHandler implements OAuthCallbackHandler {
  constructor(@Inject(UsersService) private readonly users: UsersService) {}

  handle(result: OAuthCallbackResult, provider: SupportedProvider): AppUser {
    // Provider tokens stay here: store them encrypted if the app needs them later.
    return this.users.upsert(provider, result).user;
  }
}
