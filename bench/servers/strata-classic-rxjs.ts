// Strata's classic face, plus `/rx-users/:id`: the `/users/:id` handler behind a NestJS-style
// transform interceptor (`next.handle().pipe(map(...))`, rxjs loaded by Strata on first use),
// to compare with nest-fastify-rxjs (same route, same interceptor).
import { loadStrata } from "./lib/strata.js";

// rxjs as Strata's build resolves it: the one copy an app has.
const [strata, rxjs] = await loadStrata("rxjs");
const { map } = rxjs as typeof import("rxjs");
const { Controller, Get, Param, Injectable, Module, StrataApp, ParseIntPipe, UseInterceptors } =
  strata;

/** What `next.handle()` returns, as the interceptor below uses it. */
interface Pipeable {
  pipe(operator: ReturnType<typeof import("rxjs").map>): unknown;
}

@Injectable()
class UsersService {
  find(id: number) {
    return { id, name: `user ${id}` };
  }
}

@Injectable()
class TransformInterceptor {
  intercept(_context: unknown, next: { handle(): Pipeable }) {
    return next.handle().pipe(map((data: unknown) => ({ data })));
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

@Controller("rx-users")
@UseInterceptors(TransformInterceptor)
class RxUsersController {
  constructor(private readonly users: UsersService) {}

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
  controllers: [HelloController, UsersController, RxUsersController],
  providers: [UsersService, TransformInterceptor],
})
class AppModule {}

const app = new StrataApp(AppModule);
await app.listen(Number(process.env.PORT), "127.0.0.1");
