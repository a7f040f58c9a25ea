// `GET /me`: the signed-in user, for the page's scripts or API clients holding the session cookie.
import * as Schema from "effect/Schema";
import { ApiOkResponse, ApiSecurity, Controller, Get, UseGuards } from "strata";
import { CurrentUser, DEFAULT_COOKIE_NAME, SessionGuard } from "strata/session";
import type { AppUser } from "./UsersService.js";

/** The signed-in user: the session's data, what `GET /me` answers (and its OpenAPI description). */
export const Me = Schema.Struct({
  id: Schema.Int,
  provider: Schema.Literal("google", "microsoft", "github", "facebook", "twitter"),
  providerId: Schema.String.annotations({ description: "The provider's id of the account" }),
  email: Schema.optional(Schema.String),
  name: Schema.String,
  picture: Schema.optional(Schema.String),
  role: Schema.Literal("user", "admin"),
  tenantId: Schema.String,
}).annotations({ identifier: "Me", description: "The signed-in user" });

@Controller("me")
@UseGuards(SessionGuard) // 401 without a valid session
@ApiSecurity("session", { type: "apiKey", in: "cookie", name: DEFAULT_COOKIE_NAME })
export class MeController {
  @Get()
  @ApiOkResponse({ type: Me })
  me(@CurrentUser() user: AppUser) {
    return user;
  }
}
