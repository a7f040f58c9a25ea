// Strata's classic face, plus `/rx-users/:id`: the `/users/:id` handler behind a NestJS-style
// transform interceptor (`next.handle().pipe(map(...))`, rxjs loaded by Strata on first use),
// to compare with nest-fastify-rxjs (same route, same interceptor).
import {
  Controller,
  Get,
  Injectable,
  Module,
  Param,
  ParseIntPipe,
  StrataApp,
  UseInterceptors,
} from "effect-strata";
import { map } from "rxjs";

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
// No top-level await: the same file compiles to CommonJS (dist/cjs) and ESM (dist/esm).
app.listen(Number(process.env.PORT), "127.0.0.1").catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
