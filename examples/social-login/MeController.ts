// `GET /me`: the signed-in user, for the page's scripts or API clients holding the session cookie.
import * as Schema from "effect/Schema";
import { ApiOkResponse, ApiSecurity, Controller, Get, UseGuards } from "effect-strata";
import { CurrentUser, DEFAULT_COOKIE_NAME, SessionGuard } from "effect-strata/session";
import { AppUser } from "./AppUser.js";

/**
 * The signed-in user: the session's data, what `GET /me` answers (and its OpenAPI
 * description): the app's user record and the provider of this sign-in.
 */
export const Me = Schema.Struct({
  ...AppUser.fields,
  provider: Schema.Literal("google", "microsoft", "github", "facebook", "twitter").annotations({
    description: "The provider this session signed in with",
  }),
}).annotations({ identifier: "Me", description: "The signed-in user" });

/** The session's data. */
export type SignedInUser = typeof Me.Type;

@Controller("me")
@UseGuards(SessionGuard) // 401 without a valid session
@ApiSecurity("session", { type: "apiKey", in: "cookie", name: DEFAULT_COOKIE_NAME })
export class MeController {
  @Get()
  @ApiOkResponse({ type: Me })
  me(@CurrentUser() user: SignedInUser) {
    return user;
  }
}
