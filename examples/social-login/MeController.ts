// `GET /me` with `Authorization: Bearer <app token>`: the signed-in user, for API clients.
import { Controller, Get, Headers, Inject, UnauthorizedError } from "strata";
import { TokenService } from "./TokenService.js";
import { UsersService } from "./UsersService.js";

@Controller("me")
export class MeController {
  constructor(
    @Inject(UsersService) private readonly users: UsersService,
    @Inject(TokenService) private readonly tokens: TokenService,
  ) {}

  @Get()
  me(@Headers("authorization") authorization?: string) {
    const claims = this.tokens.verify(authorization?.replace(/^Bearer /, "") ?? "");
    const user = claims === undefined ? undefined : this.users.find(Number(claims.sub));
    if (user === undefined) throw new UnauthorizedError();
    return user;
  }
}
