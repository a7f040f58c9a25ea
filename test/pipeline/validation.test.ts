import { readFileSync } from "node:fs";
import { Type } from "class-transformer";
import { IsBoolean, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from "class-validator";
import * as Schema from "effect/Schema";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  Body,
  Controller,
  Get,
  HttpError,
  Module,
  Param,
  ParseArrayPipe,
  Post,
  Query,
  StrataApp,
  ValidationPipe,
  type ValidationPipeOptions,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";
import { expectError } from "../support/expectError.js";

/** Packages Strata's lazy loader is made to miss, as if they were not installed. */
const uninstalled = vi.hoisted(() => new Set<string>());
vi.mock("node:module", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:module")>();
  const createRequire = (url: string | URL) => {
    const real = actual.createRequire(url);
    return Object.assign((id: string) => {
      if (uninstalled.has(id)) {
        throw Object.assign(new Error(`Cannot find module '${id}'`), { code: "MODULE_NOT_FOUND" });
      }
      return real(id);
    }, real);
  };
  return { ...actual, createRequire, default: { ...actual, createRequire } };
});

// DTOs written as NestJS's documentation writes them (class-validator + class-transformer).

class CreateCatDto {
  @IsString()
  name!: string;

  @IsInt()
  age!: number;

  @IsString()
  breed!: string;
}

class Owner {
  @IsString()
  name!: string;
}

class AdoptionDto {
  @ValidateNested()
  @Type(() => Owner)
  owner!: Owner;

  @IsBoolean()
  @IsOptional()
  urgent?: boolean;
}

class ListCatsQuery {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit!: number;
}

// Strata's own DTOs: Effect Schema classes.

class CreateUser extends Schema.Class<CreateUser>("CreateUser")({
  name: Schema.String.pipe(Schema.minLength(2)),
  age: Schema.Number,
}) {
  get greeting() {
    return `Hello ${this.name}`;
  }
}

class Page extends Schema.Class<Page>("Page")({ page: Schema.NumberFromString }) {}

@Controller("cats")
class CatsController {
  @Post()
  create(@Body() dto: CreateCatDto) {
    return { isInstance: dto instanceof CreateCatDto, dto };
  }

  @Post("adopt")
  adopt(@Body() dto: AdoptionDto) {
    return { ownerIsInstance: dto.owner instanceof Owner, dto };
  }

  @Get()
  list(@Query() query: ListCatsQuery) {
    return { isInstance: query instanceof ListCatsQuery, limit: query.limit };
  }

  @Get(":id")
  findOne(@Param("id") id: number, @Query("full") full: boolean, @Query("tag") tag: string) {
    return { id, full: full ?? null, tag: tag ?? null };
  }
}

@Controller("users")
class UsersController {
  @Post()
  create(@Body() user: CreateUser) {
    return {
      isInstance: user instanceof CreateUser,
      greeting: (user as Partial<CreateUser>).greeting ?? null,
      user,
    };
  }

  @Get()
  list(@Query() query: Page) {
    return { isInstance: query instanceof Page, page: query.page };
  }
}

@Module({ controllers: [CatsController, UsersController] })
class AppModule {}

const cat = { name: "Kitty", age: 3, breed: "Maine Coon" };

describe("a global ValidationPipe validates the DTO a parameter is declared with", () => {
  const app = listeningApp(AppModule, { globalPipes: [new ValidationPipe()] });

  it("refuses a bad class-validator DTO (it answered 201 before)", async () => {
    const res = await request(app, "POST", "/cats", { body: { name: 5, age: "three" } });
    expectError(res, 400, "Validation failed", [
      "name must be a string",
      "age must be an integer number",
      "breed must be a string",
    ]);
  });

  it("passes a good one as sent (no transform: a plain object, as NestJS)", async () => {
    const res = await request(app, "POST", "/cats", { body: { ...cat, extra: 1 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ isInstance: false, dto: { ...cat, extra: 1 } });
  });

  it("lists nested failures with their path", async () => {
    const res = await request(app, "POST", "/cats/adopt", {
      body: { owner: { name: 7 }, urgent: "yes" },
    });
    expectError(res, 400, "Validation failed", [
      "owner.name must be a string",
      "urgent must be a boolean value",
    ]);
  });

  it("refuses a body that is not an object against the DTO", async () => {
    for (const body of ['"just a string"', "[1,2]", "null"]) {
      const res = await request(app, "POST", "/cats", {
        headers: { "content-type": "application/json" },
        body,
      });
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toBe("Validation failed");
    }
  });

  it("does not let a __proto__ key reach the DTO's prototype", async () => {
    const res = await request(app, "POST", "/cats", {
      headers: { "content-type": "application/json" },
      body: '{"name":"Kitty","age":3,"breed":"x","__proto__":{"polluted":true}}',
    });
    expect(res.status).toBe(201);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("validates a Schema.Class DTO declared as the parameter's type", async () => {
    expectError(
      await request(app, "POST", "/users", { body: { name: "A", age: "x" } }),
      400,
      "Validation failed",
      [
        'name: Expected a string at least 2 character(s) long, actual "A"',
        'age: Expected number, actual "x"',
      ],
    );
    const ok = await request(app, "POST", "/users", { body: { name: "Ada", age: 36, x: 1 } });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({
      isInstance: true,
      greeting: "Hello Ada",
      user: { name: "Ada", age: 36 },
    });
  });

  it("validates a Schema.Class declared as a query's type", async () => {
    expect((await request(app, "GET", "/users?page=2")).body).toEqual({
      isInstance: true,
      page: 2,
    });
    expectError(await request(app, "GET", "/users?page=two"), 400, "Validation failed", [
      'page: Unable to decode "two" into a number',
    ]);
  });

  it("leaves parameters declared with a primitive type as they are (no transform)", async () => {
    expect((await request(app, "GET", "/cats/7?full=true")).body).toEqual({
      id: "7",
      full: "true",
      tag: null,
    });
  });
});

describe("Schema.Class DTOs declared as the parameter's type, without any ValidationPipe", () => {
  const app = listeningApp(AppModule);

  it("are validated by Strata, as @Body(Dto) is", async () => {
    expectError(
      await request(app, "POST", "/users", { body: { name: "Ada" } }),
      400,
      "Validation failed",
      ["age: is missing"],
    );
    expect((await request(app, "POST", "/users", { body: { name: "Ada", age: 1 } })).body).toEqual({
      isInstance: true,
      greeting: "Hello Ada",
      user: { name: "Ada", age: 1 },
    });
  });

  it("while class-validator DTOs are not (as in NestJS without a ValidationPipe)", async () => {
    const res = await request(app, "POST", "/cats", { body: { name: 5 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ isInstance: false, dto: { name: 5 } });
  });
});

describe("ValidationPipe({ whitelist: true, transform: true })", () => {
  const app = listeningApp(AppModule, {
    globalPipes: [new ValidationPipe({ whitelist: true, transform: true })],
  });

  it("gives a class-validator DTO as an instance, unknown properties stripped", async () => {
    const res = await request(app, "POST", "/cats", { body: { ...cat, extra: 1 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ isInstance: true, dto: cat });
    const nested = await request(app, "POST", "/cats/adopt", {
      body: { owner: { name: "Ann", admin: true } },
    });
    expect(nested.body).toEqual({ ownerIsInstance: true, dto: { owner: { name: "Ann" } } });
  });

  it("converts a query DTO with class-transformer's @Type and validates it", async () => {
    expect((await request(app, "GET", "/cats?limit=20")).body).toEqual({
      isInstance: true,
      limit: 20,
    });
    expectError(await request(app, "GET", "/cats?limit=500"), 400, "Validation failed", [
      "limit must not be greater than 100",
    ]);
  });

  it("converts named path and query parameters to their declared primitive types", async () => {
    expect((await request(app, "GET", "/cats/7?full=true&tag=x")).body).toEqual({
      id: 7,
      full: true,
      tag: "x",
    });
    expect((await request(app, "GET", "/cats/7?full=no")).body).toEqual({
      id: 7,
      full: false,
      tag: null,
    });
  });

  it("strips unknown keys of a Schema DTO and gives its instance", async () => {
    const res = await request(app, "POST", "/users", { body: { name: "Ada", age: 36, x: 1 } });
    expect(res.body).toEqual({
      isInstance: true,
      greeting: "Hello Ada",
      user: { name: "Ada", age: 36 },
    });
  });
});

describe("ValidationPipe({ whitelist: true, forbidNonWhitelisted: true })", () => {
  const app = listeningApp(AppModule, {
    globalPipes: [new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true })],
  });

  it("refuses unknown properties of a class-validator DTO", async () => {
    expectError(
      await request(app, "POST", "/cats", { body: { ...cat, extra: 1 } }),
      400,
      "Validation failed",
      ["property extra should not exist"],
    );
  });

  it("refuses unknown keys of a Schema DTO", async () => {
    expectError(
      await request(app, "POST", "/users", { body: { name: "Ada", age: 36, extra: 1 } }),
      400,
      "Validation failed",
      ['extra: is unexpected, expected: "name" | "age"'],
    );
  });

  it("passes valid input as a plain object without the stripped keys (no transform)", async () => {
    const res = await request(app, "POST", "/cats", { body: cat });
    expect(res.body).toEqual({ isInstance: false, dto: cat });
  });
});

describe("ValidationPipe({ transform: false }) on Schema DTOs", () => {
  const plain = listeningApp(AppModule, {
    globalPipes: [new ValidationPipe({ transform: false })],
  });
  const whitelisted = listeningApp(AppModule, {
    globalPipes: [new ValidationPipe({ transform: false, whitelist: true })],
  });

  it("validates, then gives the value as sent", async () => {
    expect(
      (await request(plain, "POST", "/users", { body: { name: "Ada", age: 36, x: 1 } })).body,
    ).toEqual({ isInstance: false, greeting: null, user: { name: "Ada", age: 36, x: 1 } });
    expect((await request(plain, "GET", "/users?page=3")).body).toEqual({
      isInstance: false,
      page: "3",
    });
    expect((await request(plain, "POST", "/users", { body: { name: "A" } })).status).toBe(400);
  });

  it("with whitelist, as sent without the unknown keys", async () => {
    expect(
      (await request(whitelisted, "POST", "/users", { body: { name: "Ada", age: 36, x: 1 } })).body,
    ).toEqual({ isInstance: false, greeting: null, user: { name: "Ada", age: 36 } });
  });
});

describe("how a ValidationPipe answers a failure", () => {
  const withOptions = (options: ValidationPipeOptions) =>
    listeningApp(AppModule, { globalPipes: [new ValidationPipe(options)] });
  const status422 = withOptions({ errorHttpStatusCode: 422 });
  const silent = withOptions({ disableErrorMessages: true });
  const custom = withOptions({
    exceptionFactory: (errors) =>
      new HttpError(
        422,
        `Invalid: ${errors.map((error) => `${error.property} (${Object.keys(error.constraints ?? {}).join(", ")})`).join("; ")}`,
      ),
  });

  it("errorHttpStatusCode sets the status, for both kinds of DTOs", async () => {
    expectError(
      await request(status422, "POST", "/cats", { body: { ...cat, age: 1.5 } }),
      422,
      "Validation failed",
      ["age must be an integer number"],
    );
    expectError(
      await request(status422, "POST", "/users", { body: { name: "Ada" } }),
      422,
      "Validation failed",
      ["age: is missing"],
    );
  });

  it("disableErrorMessages leaves the lines out", async () => {
    expectError(await request(silent, "POST", "/cats", { body: {} }), 400, "Validation failed");
    expectError(await request(silent, "POST", "/users", { body: {} }), 400, "Validation failed");
  });

  it("exceptionFactory makes the error from class-validator's errors (or Schema's, in that shape)", async () => {
    expectError(
      await request(custom, "POST", "/cats", { body: { ...cat, name: 1, age: "x" } }),
      422,
      "Invalid: name (isString); age (isInt)",
    );
    expectError(
      await request(custom, "POST", "/users", { body: { name: 1 } }),
      422,
      "Invalid: name (Type); age (Missing)",
    );
  });
});

describe("startup errors", () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it("a ValidationPipe on a handler without type metadata (esbuild) fails the start, naming the route", async () => {
    @Controller("bare")
    class BareController {
      @Post()
      create(@Body() dto: CreateCatDto) {
        return dto;
      }
    }
    Reflect.deleteMetadata("design:paramtypes", BareController.prototype, "create");
    @Module({ controllers: [BareController] })
    class BareModule {}
    const app = new StrataApp(BareModule, { globalPipes: [new ValidationPipe()] });
    apps.push(app);
    await expect(app.listen(0)).rejects.toThrow(
      /BareController\.create has no parameter type metadata \("design:paramtypes"\).*parameter #0.*esbuild.*see "Decorator metadata under vitest" in docs\/testing\.md/,
    );
    expect(readFileSync("docs/testing.md", "utf8")).toMatch(
      /^## Decorator metadata under vitest$/m,
    );
  });

  it("a class-validator DTO without class-transformer installed fails the start, saying what to do", async () => {
    uninstalled.add("class-transformer");
    try {
      const app = new StrataApp(AppModule, { globalPipes: [new ValidationPipe()] });
      apps.push(app);
      await expect(app.listen(0)).rejects.toThrow(
        'CatsController.create: the ValidationPipe of parameter #0 cannot validate it: CreateCatDto is validated by class-validator, and the "class-transformer" package is not installed: run `npm install class-transformer`, or declare the DTO as a Schema.Class.',
      );
    } finally {
      uninstalled.clear();
    }
  });

  it("ParseArrayPipe with DTO items fails at construction without class-validator", () => {
    uninstalled.add("class-validator");
    try {
      expect(() => new ParseArrayPipe({ items: CreateCatDto })).toThrow(
        'ParseArrayPipe: CreateCatDto has validation decorators, and the "class-validator" package is not installed',
      );
    } finally {
      uninstalled.clear();
    }
  });

  it("the same handler without a ValidationPipe starts (nothing would validate it)", async () => {
    @Controller("bare")
    class BareController {
      @Post()
      create(@Body() dto: CreateCatDto) {
        return dto;
      }
    }
    Reflect.deleteMetadata("design:paramtypes", BareController.prototype, "create");
    @Module({ controllers: [BareController] })
    class BareModule {}
    const app = new StrataApp(BareModule);
    apps.push(app);
    await app.listen(0);
    expect((await request(app, "POST", "/bare", { body: { a: 1 } })).body).toEqual({ a: 1 });
  });
});
