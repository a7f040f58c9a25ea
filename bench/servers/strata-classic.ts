// Strata's classic (decorator) face.
import "reflect-metadata";
import { loadStrata } from "./lib/strata.js";

const {
  Controller,
  Get,
  Param,
  Injectable,
  Module,
  StrataApp,
  ParseIntPipe,
  Scope,
  CorsMiddleware,
  SecurityHeadersMiddleware,
  RateLimitMiddleware,
  TimeoutMiddleware,
} = await loadStrata();

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

// Third variant, `STRATA_VARIANT=middleware`: the same app behind the full default middleware
// stack, outermost first: CORS (an allow-list), security headers, an in-memory rate limit
// whose max is never reached, and the request timeout. No request logger (a log line per
// request measures the log sink), no CSRF (irrelevant to GET).
const middleware =
  process.env.STRATA_VARIANT === "middleware"
    ? [
        new CorsMiddleware({ origin: ["https://app.example.com"] }),
        new SecurityHeadersMiddleware(),
        new RateLimitMiddleware({ windowMs: 60_000, max: Number.MAX_SAFE_INTEGER }),
        new TimeoutMiddleware(),
      ]
    : [];

const app = new StrataApp(AppModule, { globalMiddleware: middleware });
await app.listen(Number(process.env.PORT), "127.0.0.1");
