// Strata's classic face with sessions: `/session-users/:id` is `/users/:id` behind
// `SessionGuard`, so the two compare the guard's cost (one sealed-cookie unseal, or one Redis
// GET, per request). `GET /login` signs in and sets the cookie the runner then sends.
// `SESSION_STORE=redis` keeps sessions in the Redis at 127.0.0.1:`REDIS_PORT` (default 6379);
// the default is the sealed-cookie store. `STRATA_VARIANT=middleware` puts the full middleware
// stack (lib/middleware-stack.ts) in front of every route: the strata-classic-stack row,
// compared with servers/fastify-stack.mjs.
import * as Schema from "effect/Schema";
import {
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  Param,
  ParseIntPipe,
  Req,
  type RequestContext,
  StrataApp,
  UseGuards,
} from "effect-strata";
import { SessionGuard, SessionModule, SessionService } from "effect-strata/session";
import { middlewareStack } from "./lib/middleware-stack.js";

const User = Schema.Struct({ id: Schema.String, name: Schema.String });

@Injectable()
class UsersService {
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

// The same handler behind the session guard.
@Controller("session-users")
@UseGuards(SessionGuard)
class SessionUsersController {
  constructor(private readonly users: UsersService) {}

  @Get(":id")
  get(@Param("id", ParseIntPipe) id: number) {
    return this.users.find(id);
  }
}

@Controller()
class HelloController {
  constructor(
    @Inject(SessionService) private readonly sessions: SessionService<typeof User.Type>,
  ) {}

  @Get("hello")
  hello() {
    return { hello: "world" };
  }

  @Get("login")
  async login(@Req() req: RequestContext) {
    await this.sessions.create(req, { id: "bench", name: "bench user" });
    return { signedIn: true };
  }
}

const redis = process.env.SESSION_STORE === "redis";

@Module({
  imports: [
    SessionModule.forRoot({
      schema: User,
      ...(redis
        ? { store: { redis: { host: "127.0.0.1", port: Number(process.env.REDIS_PORT ?? 6379) } } }
        : { secret: "bench-session-secret-bench-session-secret" }),
    }),
  ],
  controllers: [HelloController, UsersController, SessionUsersController],
  providers: [UsersService],
})
class AppModule {}

const middleware = process.env.STRATA_VARIANT === "middleware" ? middlewareStack() : [];
const app = new StrataApp(AppModule, { globalMiddleware: middleware });
// No top-level await: the same file compiles to CommonJS (dist/cjs) and ESM (dist/esm).
app.listen(Number(process.env.PORT), "127.0.0.1").catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
