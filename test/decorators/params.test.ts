import { IsString } from "class-validator";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ArgumentMetadata,
  Body,
  type CanActivate,
  Controller,
  createParamDecorator,
  type ExecutionContext,
  ForbiddenError,
  Get,
  Headers,
  Injectable,
  Module,
  Param,
  ParseIntPipe,
  type PipeTransform,
  Post,
  Query,
  type RequestContext,
  type StrataResponse,
  UseGuards,
  UsePipes,
  ValidationPipe,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";
import { expectError } from "../support/expectError.js";

/** What a pipe written the NestJS way saw, per argument. */
const seen: Array<{ readonly value: unknown; readonly metadata: ArgumentMetadata }> = [];

/** NestJS's pipe signature: `transform(value, metadata)`, no request in between. */
@Injectable()
class RecordingPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata) {
    const { type, data, metatype } = metadata;
    seen.push({ value, metadata: { type, data, metatype } });
    return value;
  }
}

/** The same, reading its metadata only after an await (another argument's pipe may run meanwhile). */
@Injectable()
class LateReadingPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return `${String(value)}:${metadata.type}:${metadata.data}:${(metadata.metatype as Function).name}`;
  }
}

/** A NestJS-style pipe that only acts on the arguments its metadata says are bodies. */
class TrimBodyPipe implements PipeTransform {
  transform(value: unknown, { type }: ArgumentMetadata) {
    return type === "body" && typeof value === "string" ? value.trim() : value;
  }
}

class UserEntity {
  @IsString()
  username!: string;
}

interface SessionUser {
  readonly id: number;
  readonly username: string;
  readonly role: string;
}

/** Sets `request.user` from a header, as an auth guard would. */
class FakeAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext) {
    const name = context.switchToHttp().getRequest().headers["x-user"];
    if (name === undefined) return true;
    context.switchToHttp().getRequest().user = { id: 1, username: name, role: "admin" };
    return true;
  }
}

/** NestJS's documented `@User()` decorator: the request's user, or one of its properties. */
const User = createParamDecorator((data: keyof SessionUser | undefined, ctx: ExecutionContext) => {
  const user = ctx.switchToHttp().getRequest().user as SessionUser | undefined;
  return data === undefined ? user : user?.[data];
});

/** A factory that answers asynchronously. */
const Later = createParamDecorator(async (data: string) => `later ${data}`);

/** A factory returning an Effect. */
const FromEffect = createParamDecorator((data: number) => Effect.succeed(data * 2));

/** A factory refusing the request with an HTTP error, or failing with a bug. */
const Refuse = createParamDecorator((data: "http" | "bug") => {
  if (data === "http") throw new ForbiddenError("Not for you");
  throw new Error("secret internal detail");
});

/** Where `enhancers` were applied: the decorator's own parameter. */
const enhanced: Array<string> = [];
const Enhanced = createParamDecorator(
  () => "enhanced",
  [(_target, handler, index) => enhanced.push(`${String(handler)}#${index}`)],
);

/** A factory reading the request and the response through the execution context. */
const Host = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const [req, res] = ctx.getArgs();
  (res as StrataResponse).setHeader("x-from-decorator", "yes");
  return {
    sameRequest: req === ctx.switchToHttp().getRequest(),
    sameResponse: ctx.getArgByIndex(1) === ctx.switchToHttp().getResponse(),
    method: (ctx.getArgByIndex(0) as RequestContext).method,
    type: ctx.getType(),
    handler: ctx.getHandler().name,
  };
});

@Controller("p")
@UseGuards(FakeAuthGuard)
class ParamsController {
  @Post("body-key")
  bodyKey(
    @Body("name") name: unknown,
    @Body("missing") missing: unknown,
    @Body("constructor") inherited: unknown,
    @Body("age", ParseIntPipe) age: number,
  ) {
    return { name, missing: missing ?? null, inherited: inherited ?? null, age };
  }

  @Post("body-key-schema")
  bodyKeySchema(@Body("count", Schema.NumberFromString) count: number) {
    return { count };
  }

  @Post("metadata/:id")
  @UsePipes(RecordingPipe)
  metadata(
    @Param("id") _id: string,
    @Param() _params: Record<string, string>,
    @Query("q") _q: number,
    @Body() _body: UserEntity,
    @Body("username") _username: string,
    @User("username") _user: string,
  ) {
    return "ok";
  }

  @Post("late/:id")
  late(
    @Param("id", LateReadingPipe) id: string,
    @Query("q", LateReadingPipe) q: number,
    @Body("b", LateReadingPipe) b: boolean,
  ) {
    return { id, q, b };
  }

  @Post("trim")
  trim(@Body(TrimBodyPipe) body: string, @Query("q", TrimBodyPipe) q: string) {
    return { body, q };
  }

  @Get("me")
  me(@User() user: SessionUser | undefined, @User("username") name: string | undefined) {
    return { user: user ?? null, name: name ?? null };
  }

  @Get("me/validated")
  meValidated(@User(new ValidationPipe({ validateCustomDecorators: true })) user: UserEntity) {
    return { username: user.username };
  }

  @Get("me/unvalidated")
  meUnvalidated(@User(new ValidationPipe()) user: UserEntity) {
    return { user: user ?? null };
  }

  @Get("async")
  async(@Later("data") later: string, @FromEffect(21) doubled: number) {
    return { later, doubled };
  }

  @Get("async-piped")
  asyncPiped(@Later("7", { transform: (v: unknown) => String(v).toUpperCase() }) later: string) {
    return { later };
  }

  @Get("refuse")
  refuse(@Refuse("http") _value: unknown) {
    return "unreachable";
  }

  @Get("bug")
  bug(@Refuse("bug") _value: unknown) {
    return "unreachable";
  }

  @Get("host")
  host(@Host() host: unknown) {
    return host;
  }

  @Get("enhanced")
  enhancedRoute(@Query("x") _x: string, @Enhanced() value: string) {
    return { value };
  }

  @Get("headers")
  headers(@Headers("x-a") a: string, @Query("k") k: string, @Param() all: unknown) {
    return { a, k, all };
  }
}

@Module({ controllers: [ParamsController] })
class AppModule {}

describe("NestJS parameter decorators", () => {
  const app = listeningApp(AppModule);

  it('@Body("key") injects that property of the body (it injected the whole body before)', async () => {
    const res = await request(app, "POST", "/p/body-key", {
      body: { name: "Kitty", age: "3", other: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: "Kitty", missing: null, inherited: null, age: 3 });
  });

  it('@Body("key", pipe) runs the pipe on the property: a rejection answers 400', async () => {
    expectError(
      await request(app, "POST", "/p/body-key", { body: { name: "Kitty", age: "three" } }),
      400,
      "Validation failed (numeric string is expected)",
    );
    expectError(
      await request(app, "POST", "/p/body-key", {
        headers: { "content-type": "text/plain" },
        body: "age=3",
      }),
      400,
      "Validation failed (numeric string is expected)",
    );
  });

  it('@Body("key", Schema) validates the property', async () => {
    expect(
      (await request(app, "POST", "/p/body-key-schema", { body: { count: "4" } })).body,
    ).toEqual({
      count: 4,
    });
    expectError(
      await request(app, "POST", "/p/body-key-schema", { body: { count: "four" } }),
      400,
      "Validation failed",
      ['Unable to decode "four" into a number'],
    );
  });

  it("@Query(key), @Param() and @Headers(name) read what NestJS's do", async () => {
    const res = await request(app, "GET", "/p/headers?k=v", { headers: { "X-A": "1" } });
    expect(res.body).toEqual({ a: "1", k: "v", all: {} });
  });
});

describe("a pipe written transform(value, metadata), the NestJS way", () => {
  const app = listeningApp(AppModule);

  it("reads type, data and metatype (undefined before)", async () => {
    seen.length = 0;
    const res = await request(app, "POST", "/p/metadata/5?q=2", {
      headers: { "x-user": "ada" },
      body: { username: "ada" },
    });
    expect(res.status).toBe(201);
    expect(seen).toEqual([
      { value: "5", metadata: { type: "param", data: "id", metatype: String } },
      { value: { id: "5" }, metadata: { type: "param", data: undefined, metatype: Object } },
      { value: "2", metadata: { type: "query", data: "q", metatype: Number } },
      {
        value: { username: "ada" },
        metadata: { type: "body", data: undefined, metatype: UserEntity },
      },
      { value: "ada", metadata: { type: "body", data: "username", metatype: String } },
      { value: "ada", metadata: { type: "custom", data: "username", metatype: String } },
    ]);
  });

  it("reads its own argument's metadata even after an await, while other arguments wait", async () => {
    const res = await request(app, "POST", "/p/late/9?q=1", { body: { b: true } });
    expect(res.body).toEqual({
      id: "9:param:id:String",
      q: "1:query:q:Number",
      b: "true:body:b:Boolean",
    });
  });

  it("acts on the arguments its metadata selects", async () => {
    const res = await request(app, "POST", "/p/trim?q=%20x%20", {
      headers: { "content-type": "text/plain" },
      body: "  padded  ",
    });
    expect(res.body).toEqual({ body: "padded", q: " x " });
  });
});

describe("createParamDecorator", () => {
  const app = listeningApp(AppModule);

  it("gives the factory's value: the user a guard set, or one of its properties", async () => {
    expect((await request(app, "GET", "/p/me", { headers: { "x-user": "ada" } })).body).toEqual({
      user: { id: 1, username: "ada", role: "admin" },
      name: "ada",
    });
    expect((await request(app, "GET", "/p/me")).body).toEqual({ user: null, name: null });
  });

  it("runs its pipes: a ValidationPipe with validateCustomDecorators validates the value", async () => {
    expect(
      (await request(app, "GET", "/p/me/validated", { headers: { "x-user": "ada" } })).body,
    ).toEqual({ username: "ada" });
    expectError(await request(app, "GET", "/p/me/validated"), 400, "Validation failed", [
      "username must be a string",
    ]);
  });

  it("a ValidationPipe without validateCustomDecorators leaves it alone, as in NestJS", async () => {
    expect((await request(app, "GET", "/p/me/unvalidated")).body).toEqual({ user: null });
  });

  it("awaits a factory's Promise or Effect, before its pipes", async () => {
    expect((await request(app, "GET", "/p/async")).body).toEqual({
      later: "later data",
      doubled: 42,
    });
    expect((await request(app, "GET", "/p/async-piped")).body).toEqual({ later: "LATER 7" });
  });

  it("answers an HttpError the factory throws with its status", async () => {
    expectError(await request(app, "GET", "/p/refuse"), 403, "Not for you");
  });

  it("answers any other failure of the factory with a bare 500", async () => {
    const res = await request(app, "GET", "/p/bug");
    expectError(res, 500, "Internal Server Error");
    expect(res.text).not.toContain("secret");
  });

  it("applies its enhancers (other parameter decorators) to the same parameter", async () => {
    expect(enhanced).toEqual(["enhancedRoute#1"]);
    expect((await request(app, "GET", "/p/enhanced")).body).toEqual({ value: "enhanced" });
  });

  it("hands the factory an ExecutionContext: getArgs, getArgByIndex, switchToHttp", async () => {
    const res = await request(app, "GET", "/p/host");
    expect(res.headers.get("x-from-decorator")).toBe("yes");
    expect(res.body).toEqual({
      sameRequest: true,
      sameResponse: true,
      method: "GET",
      type: "http",
      handler: "host",
    });
  });
});

describe("parameter decorators, wrong uses", () => {
  it("@Query, @Param and @Body refuse a second key, or anything that is neither a pipe nor a DTO", () => {
    expect(() => Query("q", "other" as never)).toThrow(
      '@Query() takes a key first, then pipes and at most one Schema or DTO class: got "other"',
    );
    expect(() => Body({ name: "x" } as never)).toThrow(
      '@Body() takes a key first, then pipes and at most one Schema or DTO class: got {"name":"x"}',
    );
    expect(() => Param("id", Schema.String, Schema.Number)).toThrow(
      "@Param() takes at most one Schema or DTO class",
    );
  });
});

describe("createParamDecorator, wrong uses", () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  it("refuses a constructor parameter, naming the decorator", () => {
    function currentTenant() {
      return "t";
    }
    const Tenant = createParamDecorator(currentTenant);
    expect(() => {
      class Service {
        constructor(@Tenant() readonly tenant: string) {}
      }
      return Service;
    }).toThrow("@currentTenant() decorates handler parameters, not constructor parameters");
  });

  it("refuses an argument after the data that is not a pipe", () => {
    expect(() => User("username", "role" as never)).toThrow(
      "argument #1 is not a pipe (an object or class with a transform method)",
    );
  });
});
