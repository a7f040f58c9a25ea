import { Exclude, Expose, Type } from "class-transformer";
import * as Effect from "effect/Effect";
import {
  catchError,
  EMPTY,
  interval,
  map,
  type Observable,
  of,
  TimeoutError,
  take,
  tap,
  throwError,
  timeout,
} from "rxjs";
import { describe, expect, it } from "vitest";
import {
  BadRequestException,
  type CallHandler,
  ClassSerializerInterceptor,
  ConflictException,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  Interceptor,
  Module,
  type NestInterceptor,
  NotFoundException,
  Param,
  ParseIntPipe,
  Reflector,
  RequestTimeoutException,
  SerializeOptions,
  StrataApp,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

const log: Array<string> = [];

/** NestJS's logging interceptor: `tap` after the handler. */
@Injectable()
class LoggingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    log.push(`before ${context.getHandler().name}`);
    return next.handle().pipe(tap(() => log.push(`after ${context.getHandler().name}`)));
  }
}

/** NestJS's transform interceptor: `{ data }` around the result. */
@Injectable()
class TransformInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((data) => ({ data })));
  }
}

/** NestJS's cache interceptor: `of(value)` without calling the handler. */
@Injectable()
class CacheInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    return context.query.cached === "1" ? of({ cached: true }) : next.handle();
  }
}

/** NestJS's timeout interceptor: `timeout` then `catchError` to a 408. */
@Injectable()
class TimeoutInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(
      timeout(50),
      catchError((error: unknown) =>
        throwError(() => (error instanceof TimeoutError ? new RequestTimeoutException() : error)),
      ),
    );
  }
}

/** NestJS's exception mapping: `catchError` to another HTTP error. */
@Injectable()
class ErrorsInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next
      .handle()
      .pipe(catchError(() => throwError(() => new ConflictException("Mapped by interceptor"))));
  }
}

/** Strata's form outside NestJS's: `await next()` gets the Observable's last value. */
class AwaitingInterceptor extends Interceptor {
  async intercept(_context: ExecutionContext, next: CallHandler) {
    return { awaited: await next() };
  }
}

/** A guard answering with an Observable, as NestJS allows. */
const observableGuard = {
  canActivate: (context: ExecutionContext) => of(context.query.allow === "1"),
};

const interrupted = { count: 0 };

@Controller("cats")
@UseInterceptors(LoggingInterceptor)
class CatsController {
  @Get("transform/:id")
  @UseInterceptors(TransformInterceptor)
  transform(@Param("id", ParseIntPipe) id: number) {
    log.push("handler");
    return { id };
  }

  @Get("cache")
  @UseInterceptors(CacheInterceptor)
  cache() {
    log.push("handler");
    return { cached: false };
  }

  @Get("slow/:ms")
  @UseInterceptors(TimeoutInterceptor)
  slow(@Param("ms", ParseIntPipe) ms: number) {
    return Effect.sleep(ms).pipe(
      Effect.as({ slow: ms }),
      Effect.onInterrupt(() => Effect.sync(() => interrupted.count++)),
    );
  }

  @Get("slow-promise")
  @UseInterceptors(TimeoutInterceptor)
  async slowPromise() {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { slow: true };
  }

  @Get("failing/:kind")
  @UseInterceptors(ErrorsInterceptor)
  failing(@Param("kind") kind: string) {
    if (kind === "fine") return { fine: true };
    throw new BadRequestException();
  }

  @Get("mixed")
  @UseInterceptors(AwaitingInterceptor, TransformInterceptor)
  mixed() {
    return of(1, 2, 3);
  }

  @Get("guarded")
  @UseGuards(observableGuard)
  guarded() {
    return { allowed: true };
  }
}

@Controller("observables")
class ObservablesController {
  @Get("one")
  one() {
    return of({ name: "Tom" });
  }

  @Get("last")
  last() {
    return interval(5).pipe(
      take(3),
      map((n) => ({ n })),
    );
  }

  @Get("async")
  async asyncObservable() {
    return of({ awaited: "twice" });
  }

  @Get("missing")
  missing() {
    return throwError(() => new NotFoundException("No such cat"));
  }

  @Get("broken")
  broken() {
    return throwError(() => new Error("secret detail"));
  }

  @Get("empty")
  empty() {
    return EMPTY;
  }

  @Get("transformed")
  @UseInterceptors(TransformInterceptor)
  transformed() {
    return of("a", "b");
  }
}

@Module({
  controllers: [CatsController, ObservablesController],
  providers: [LoggingInterceptor],
})
class AppModule {}

describe("NestJS interceptors (rxjs)", () => {
  const app = listeningApp(AppModule);

  it("maps the result with next.handle().pipe(map(...)) and logs around it with tap", async () => {
    log.length = 0;
    const res = await request(app, "GET", "/cats/transform/7");
    expect(res).toMatchObject({ status: 200, body: { data: { id: 7 } } });
    expect(log).toEqual(["before transform", "handler", "after transform"]);
  });

  it("sees a pipe's failure as the Observable's error", async () => {
    expect(await request(app, "GET", "/cats/transform/x")).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: "Validation failed (numeric string is expected)" },
    });
  });

  it("answers from of(value) without calling the handler", async () => {
    log.length = 0;
    expect((await request(app, "GET", "/cats/cache?cached=1")).body).toEqual({ cached: true });
    expect(log).toEqual(["before cache", "after cache"]);
    expect((await request(app, "GET", "/cats/cache")).body).toEqual({ cached: false });
  });

  it("times out with timeout() + catchError to a 408, interrupting the handler's Effect", async () => {
    const before = interrupted.count;
    expect(await request(app, "GET", "/cats/slow/500")).toMatchObject({
      status: 408,
      body: { statusCode: 408 },
    });
    expect(interrupted.count).toBe(before + 1);
    expect(await request(app, "GET", "/cats/slow-promise")).toMatchObject({ status: 408 });
    expect((await request(app, "GET", "/cats/slow/1")).body).toEqual({ slow: 1 });
  });

  it("maps a failure with catchError", async () => {
    expect(await request(app, "GET", "/cats/failing/bad")).toMatchObject({
      status: 409,
      body: { statusCode: 409, message: "Mapped by interceptor" },
    });
    expect((await request(app, "GET", "/cats/failing/fine")).body).toEqual({ fine: true });
  });

  it("gives a Strata interceptor's next() the last value of the Observables inside it", async () => {
    expect((await request(app, "GET", "/cats/mixed")).body).toEqual({
      awaited: { data: 3 },
    });
  });

  it("awaits a guard's Observable", async () => {
    expect((await request(app, "GET", "/cats/guarded?allow=1")).body).toEqual({ allowed: true });
    expect(await request(app, "GET", "/cats/guarded")).toMatchObject({
      status: 403,
      body: { statusCode: 403 },
    });
  });
});

describe("handlers returning an Observable", () => {
  const app = listeningApp(AppModule);

  it("answers its value (was {})", async () => {
    expect(await request(app, "GET", "/observables/one")).toMatchObject({
      status: 200,
      body: { name: "Tom" },
    });
  });

  it("answers its last value, as NestJS's lastValueFrom", async () => {
    expect((await request(app, "GET", "/observables/last")).body).toEqual({ n: 2 });
    expect((await request(app, "GET", "/observables/transformed")).body).toEqual({ data: "b" });
  });

  it("awaits an Observable an async handler resolves with", async () => {
    expect((await request(app, "GET", "/observables/async")).body).toEqual({ awaited: "twice" });
  });

  it("maps throwError(() => new NotFoundException()) to a 404", async () => {
    expect(await request(app, "GET", "/observables/missing")).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: "No such cat" },
    });
  });

  it("answers 500 without the message for another error, and for an empty Observable", async () => {
    for (const path of ["/observables/broken", "/observables/empty"]) {
      const res = await request(app, "GET", path);
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ statusCode: 500, message: "Internal Server Error" });
      expect(res.text).not.toContain("secret");
      expect(res.text).not.toContain("sequence");
    }
  });
});

describe("@UseInterceptors / @UseGuards / @UsePipes / @UseFilters given undefined", () => {
  // An import cycle gives `undefined` where a class was meant; it started, then answered 500.
  const missing = undefined as never;

  it("throws at decoration time naming the class, the method and the argument's position", () => {
    expect(() => {
      @Controller("a")
      class CyclicInterceptors {
        @Get()
        @UseInterceptors(TransformInterceptor, missing)
        list() {
          return [];
        }
      }
      return CyclicInterceptors;
    }).toThrow(
      "@UseInterceptors() on CyclicInterceptors.list: argument #1 is undefined, not an interceptor (a class, or an object with intercept()). An undefined argument usually comes from an import cycle or a missing export.",
    );
    expect(() => {
      @UseGuards(missing)
      @Controller("b")
      class CyclicGuards {}
      return CyclicGuards;
    }).toThrow("@UseGuards() on CyclicGuards: argument #0 is undefined, not a guard");
    expect(() => {
      class CyclicPipes {
        @UsePipes(ParseIntPipe, null as never)
        find() {}
      }
      return CyclicPipes;
    }).toThrow("@UsePipes() on CyclicPipes.find: argument #1 is null, not a pipe");
    expect(() => {
      class CyclicFilters {
        @UseFilters({ filter: true } as never)
        find() {}
      }
      return CyclicFilters;
    }).toThrow(
      "@UseFilters() on CyclicFilters.find: argument #0 is an object, not an exception filter",
    );
  });
});

class RoleEntity {
  id!: number;
  @Exclude()
  internal = "hidden";
}

class UserEntity {
  id!: number;
  firstName!: string;
  lastName!: string;
  @Exclude()
  password!: string;
  @Expose({ groups: ["admin"] })
  email!: string;
  @Type(() => RoleEntity)
  role!: RoleEntity;

  @Expose()
  get fullName(): string {
    return `${this.firstName} ${this.lastName}`;
  }

  constructor(partial: Partial<UserEntity>) {
    Object.assign(this, partial);
  }
}

const ada = () =>
  new UserEntity({
    id: 1,
    firstName: "Ada",
    lastName: "Lovelace",
    password: "secret",
    email: "ada@example.com",
    role: Object.assign(new RoleEntity(), { id: 7 }),
  });

@Controller("users")
@UseInterceptors(ClassSerializerInterceptor)
class UsersController {
  @Get("one")
  one() {
    return ada();
  }

  @Get("many")
  many() {
    return [ada(), ada()];
  }

  @Get("admin")
  @SerializeOptions({ groups: ["admin"] })
  admin() {
    return ada();
  }

  @Get("plain")
  @SerializeOptions({ type: UserEntity })
  plain() {
    return { id: 2, firstName: "Grace", lastName: "Hopper", password: "secret" };
  }

  @Get("text")
  text() {
    return "as is";
  }
}

@Module({ controllers: [UsersController] })
class UsersModule {}

describe("ClassSerializerInterceptor (class-transformer)", () => {
  const app = listeningApp(UsersModule);

  it("leaves out @Exclude() properties and adds @Expose() getters, nested entities included", async () => {
    const res = await request(app, "GET", "/users/one");
    expect(res.body).toEqual({
      id: 1,
      firstName: "Ada",
      lastName: "Lovelace",
      fullName: "Ada Lovelace",
      role: { id: 7 },
    });
    expect(res.text).not.toContain("secret");
    expect(((await request(app, "GET", "/users/many")).body as Array<unknown>).length).toBe(2);
  });

  it("applies the handler's @SerializeOptions (groups, type)", async () => {
    expect((await request(app, "GET", "/users/admin")).body).toMatchObject({
      email: "ada@example.com",
    });
    expect((await request(app, "GET", "/users/plain")).body).toEqual({
      id: 2,
      firstName: "Grace",
      lastName: "Hopper",
      fullName: "Grace Hopper",
    });
    expect((await request(app, "GET", "/users/text")).text).toBe("as is");
  });

  it("works as a global interceptor made with the app's Reflector", async () => {
    const serializer = new ClassSerializerInterceptor(new Reflector(), {
      excludePrefixes: ["first"],
    });
    const global = new StrataApp(UsersModule, { globalInterceptors: [serializer] });
    await global.listen(0);
    try {
      expect((await request(global, "GET", "/users/one")).body).toEqual({
        id: 1,
        lastName: "Lovelace",
        fullName: "Ada Lovelace",
        role: { id: 7 },
      });
    } finally {
      await global.close();
    }
  });
});
