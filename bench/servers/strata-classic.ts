// Strata's classic (decorator) face.
import "reflect-metadata";
import { loadStrata } from "./lib/strata.js";

const { Controller, Get, Param, Injectable, Module, StrataApp, ParseIntPipe, Scope } =
  await loadStrata();

@Injectable()
class UsersService {
  find(id: number) {
    return { id, name: `user ${id}` };
  }
}

@Injectable({ scope: Scope.REQUEST })
class RequestUsersService {
  find(id: number) {
    return { id, name: `user ${id}` };
  }
}

@Controller("users")
class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get(":id")
  get(@Param("id", ParseIntPipe) id: number) {
    return this.users.find(id);
  }
}

// Extra route, only here: the same handler with a request-scoped service.
@Controller("req-users")
class ReqUsersController {
  constructor(private readonly users: RequestUsersService) {}

  @Get(":id")
  get(@Param("id", ParseIntPipe) id: number) {
    return this.users.find(id);
  }
}

@Controller("hello")
class HelloController {
  @Get()
  hello() {
    return { hello: "world" };
  }
}

@Module({
  controllers: [HelloController, UsersController, ReqUsersController],
  providers: [UsersService, RequestUsersService],
})
class AppModule {}

const app = new StrataApp(AppModule);
await app.listen(Number(process.env.PORT), "127.0.0.1");
