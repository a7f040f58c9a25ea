// `GET /me` with `Authorization: Bearer <app token>`: the signed-in user, for API clients.
import * as Schema from "effect/Schema";
import {
  ApiBearerAuth,
  ApiOkResponse,
  Controller,
  Get,
  Headers,
  Inject,
  UnauthorizedError,
} from "strata";
import { TokenService } from "./TokenService.js";
import { UsersService } from "./UsersService.js";

/** What `GET /me` answers: the signed-in user (its OpenAPI description, and clients' type). */
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
@ApiBearerAuth("appToken")
export class MeController {
  constructor(
    @Inject(UsersService) private readonly users: UsersService,
    @Inject(TokenService) private readonly tokens: TokenService,
  ) {}

  @Get()
  @ApiOkResponse({ type: Me })
  me(@Headers("authorization") authorization?: string) {
    const claims = this.tokens.verify(authorization?.replace(/^Bearer /, "") ?? "");
    const user = claims === undefined ? undefined : this.users.find(Number(claims.sub));
    if (user === undefined) throw new UnauthorizedError();
    return user;
  }
}
