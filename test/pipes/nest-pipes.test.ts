import { IsInt, IsString } from "class-validator";
import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import {
  Controller,
  DefaultValuePipe,
  Get,
  HttpError,
  Module,
  NotFoundError,
  Param,
  ParseArrayPipe,
  ParseBoolPipe,
  ParseEnumPipe,
  ParseFloatPipe,
  ParseIntPipe,
  ParseUUIDPipe,
  Query,
  UnprocessableEntityError,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";
import { expectError } from "../support/expectError.js";

enum Sort {
  Asc = "asc",
  Desc = "desc",
}

enum Level {
  Low = 1,
  High = 2,
}

class Tag {
  @IsString()
  name!: string;

  @IsInt()
  weight!: number;
}

const uuid4 = "3f2b8c1e-9d4a-4f6b-8a2c-1e5d7f9b0c3a";
const uuid1 = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

@Controller("pipes")
class PipesController {
  @Get("uuid/:id")
  uuid(@Param("id", ParseUUIDPipe) id: string) {
    return { id };
  }

  @Get("uuid4/:id")
  uuid4(@Param("id", new ParseUUIDPipe({ version: "4" })) id: string) {
    return { id };
  }

  @Get("uuid-query")
  uuidQuery(
    @Query("id", ParseUUIDPipe) id: string,
    @Query("ref", new ParseUUIDPipe({ optional: true })) ref: string | undefined,
  ) {
    return { id, ref: ref ?? null };
  }

  @Get("bool")
  bool(
    @Query("flag", ParseBoolPipe) flag: boolean,
    @Query("maybe", new ParseBoolPipe({ optional: true })) maybe: boolean | undefined,
  ) {
    return { flag, maybe: maybe ?? null };
  }

  @Get("float")
  float(@Query("x", ParseFloatPipe) x: number) {
    return { x };
  }

  @Get("array")
  array(@Query("ids", new ParseArrayPipe({ items: Number })) ids: ReadonlyArray<number>) {
    return { ids };
  }

  @Get("array-raw")
  arrayRaw(@Query("v", new ParseArrayPipe({ separator: "|" })) v: ReadonlyArray<string>) {
    return { v };
  }

  @Get("array-bool")
  arrayBool(
    @Query("flags", new ParseArrayPipe({ items: Boolean, optional: true }))
    flags: ReadonlyArray<boolean> | undefined,
  ) {
    return { flags: flags ?? null };
  }

  @Get("array-all-errors")
  arrayAllErrors(
    @Query("ids", new ParseArrayPipe({ items: Number, stopAtFirstError: false }))
    ids: ReadonlyArray<number>,
  ) {
    return { ids };
  }

  @Get("array-dto")
  arrayDto(@Query("tags", new ParseArrayPipe({ items: Tag, separator: ";" })) tags: Array<Tag>) {
    return { tags, instances: tags.every((tag) => tag instanceof Tag) };
  }

  @Get("array-schema")
  arraySchema(
    @Query("n", new ParseArrayPipe({ items: Schema.NumberFromString })) n: ReadonlyArray<number>,
  ) {
    return { n };
  }

  @Get("enum")
  enum(
    @Query("sort", new ParseEnumPipe(Sort)) sort: Sort,
    @Query("level", new ParseEnumPipe(Level, { optional: true })) level: Level | undefined,
  ) {
    return { sort, level: level ?? null };
  }

  @Get("page")
  page(
    @Query("page", new DefaultValuePipe(1), ParseIntPipe) page: number,
    @Query("active", new DefaultValuePipe(false), ParseBoolPipe) active: boolean,
  ) {
    return { page, active };
  }

  @Get("int-optional")
  intOptional(@Query("n", new ParseIntPipe({ optional: true })) n: number | undefined) {
    return { n: n ?? null };
  }

  @Get("status")
  status(
    @Query("a", new ParseIntPipe({ errorHttpStatusCode: 406 })) a: number,
    @Query("b", new ParseFloatPipe({ errorHttpStatusCode: 422 })) b: number,
  ) {
    return { a, b };
  }

  @Get("factory")
  factory(
    @Query(
      "b",
      new ParseBoolPipe({
        exceptionFactory: (message) => new HttpError(418, `teapot: ${message}`),
      }),
    )
    b: boolean,
  ) {
    return { b };
  }
}

@Module({ controllers: [PipesController] })
class AppModule {}

const app = listeningApp(AppModule);

describe("ParseUUIDPipe", () => {
  it("passes a UUID of any version, or of the one asked for", async () => {
    expect((await request(app, "GET", `/pipes/uuid/${uuid1}`)).body).toEqual({ id: uuid1 });
    expect((await request(app, "GET", `/pipes/uuid4/${uuid4.toUpperCase()}`)).body).toEqual({
      id: uuid4.toUpperCase(),
    });
  });

  it("refuses anything else with NestJS's messages", async () => {
    expectError(
      await request(app, "GET", "/pipes/uuid/not-a-uuid"),
      400,
      "Validation failed (uuid is expected)",
    );
    expectError(
      await request(app, "GET", `/pipes/uuid4/${uuid1}`),
      400,
      "Validation failed (uuid v 4 is expected)",
    );
    expectError(
      await request(app, "GET", "/pipes/uuid-query"),
      400,
      "The value passed as UUID is not a string",
    );
  });

  it("with optional, lets a missing value through", async () => {
    expect((await request(app, "GET", `/pipes/uuid-query?id=${uuid4}`)).body).toEqual({
      id: uuid4,
      ref: null,
    });
    expectError(
      await request(app, "GET", `/pipes/uuid-query?id=${uuid4}&ref=x`),
      400,
      "Validation failed (uuid is expected)",
    );
  });
});

describe("ParseBoolPipe", () => {
  it('converts "true" and "false", refuses the rest', async () => {
    expect((await request(app, "GET", "/pipes/bool?flag=true")).body).toEqual({
      flag: true,
      maybe: null,
    });
    expect((await request(app, "GET", "/pipes/bool?flag=false&maybe=true")).body).toEqual({
      flag: false,
      maybe: true,
    });
    for (const query of ["?flag=yes", "?flag=1", "", "?flag=true&maybe=no"]) {
      expectError(
        await request(app, "GET", `/pipes/bool${query}`),
        400,
        "Validation failed (boolean string is expected)",
      );
    }
  });
});

describe("ParseFloatPipe", () => {
  it("converts numeric strings, refuses the rest", async () => {
    expect((await request(app, "GET", "/pipes/float?x=3.14")).body).toEqual({ x: 3.14 });
    expect((await request(app, "GET", "/pipes/float?x=-1e3")).body).toEqual({ x: -1000 });
    for (const x of ["abc", "", "Infinity", "1.2.3"]) {
      expectError(
        await request(app, "GET", `/pipes/float?x=${x}`),
        400,
        "Validation failed (numeric string is expected)",
      );
    }
  });
});

describe("ParseArrayPipe", () => {
  it("splits a string and converts its items", async () => {
    expect((await request(app, "GET", "/pipes/array?ids=1,2,3")).body).toEqual({ ids: [1, 2, 3] });
    expect((await request(app, "GET", "/pipes/array?ids=4&ids=5")).body).toEqual({ ids: [4, 5] });
    expect((await request(app, "GET", "/pipes/array-raw?v=a|b,c")).body).toEqual({
      v: ["a", "b,c"],
    });
    expect((await request(app, "GET", "/pipes/array-bool?flags=true,false")).body).toEqual({
      flags: [true, false],
    });
    expect((await request(app, "GET", "/pipes/array-schema?n=1,2")).body).toEqual({ n: [1, 2] });
  });

  it("refuses a missing value and bad items with NestJS's messages", async () => {
    expectError(
      await request(app, "GET", "/pipes/array"),
      400,
      "Validation failed (parsable array expected)",
    );
    expectError(
      await request(app, "GET", "/pipes/array?ids=1,x,3"),
      400,
      "[1] item must be a number",
    );
    expectError(
      await request(app, "GET", "/pipes/array-bool?flags=true,yes"),
      400,
      "[1] item must be a boolean value",
    );
    expectError(await request(app, "GET", "/pipes/array-schema?n=1,x"), 400, "Validation failed", [
      'Unable to decode "x" into a number',
    ]);
  });

  it("with optional, lets a missing value through", async () => {
    expect((await request(app, "GET", "/pipes/array-bool")).body).toEqual({ flags: null });
  });

  it("with stopAtFirstError: false, reports every bad item", async () => {
    expectError(
      await request(app, "GET", "/pipes/array-all-errors?ids=1,x,3,y"),
      400,
      "Validation failed",
      ["[1] item must be a number", "[3] item must be a number"],
    );
  });

  it("validates DTO items (JSON) with class-validator, as instances", async () => {
    const tags = encodeURIComponent('{"name":"a","weight":1};{"name":"b","weight":2}');
    expect((await request(app, "GET", `/pipes/array-dto?tags=${tags}`)).body).toEqual({
      tags: [
        { name: "a", weight: 1 },
        { name: "b", weight: 2 },
      ],
      instances: true,
    });
    const bad = encodeURIComponent('{"name":"a","weight":1};{"name":2}');
    expectError(
      await request(app, "GET", `/pipes/array-dto?tags=${bad}`),
      400,
      "Validation failed",
      ["name must be a string", "weight must be an integer number"],
    );
  });
});

describe("ParseEnumPipe", () => {
  it("passes a member, refuses the rest", async () => {
    expect((await request(app, "GET", "/pipes/enum?sort=asc")).body).toEqual({
      sort: "asc",
      level: null,
    });
    expectError(
      await request(app, "GET", "/pipes/enum?sort=up"),
      400,
      "Validation failed (enum string is expected)",
    );
    expectError(
      await request(app, "GET", "/pipes/enum"),
      400,
      "Validation failed (enum string is expected)",
    );
    // Query values are strings: the numeric member 1 is not "1", as in NestJS.
    expectError(
      await request(app, "GET", "/pipes/enum?sort=asc&level=1"),
      400,
      "Validation failed (enum string is expected)",
    );
  });

  it("needs an enum", () => {
    expect(() => new ParseEnumPipe(undefined as unknown as object)).toThrow(
      "ParseEnumPipe needs the enum to check values against",
    );
  });
});

describe("DefaultValuePipe before a parse pipe", () => {
  it("gives the default when the value is missing (ParseIntPipe refused the number before)", async () => {
    expect((await request(app, "GET", "/pipes/page")).body).toEqual({ page: 1, active: false });
    expect((await request(app, "GET", "/pipes/page?page=4&active=true")).body).toEqual({
      page: 4,
      active: true,
    });
    expectError(
      await request(app, "GET", "/pipes/page?page=x"),
      400,
      "Validation failed (numeric string is expected)",
    );
  });
});

describe("options of the parse pipes", () => {
  it("ParseIntPipe({ optional: true }) lets a missing value through", async () => {
    expect((await request(app, "GET", "/pipes/int-optional")).body).toEqual({ n: null });
    expect((await request(app, "GET", "/pipes/int-optional?n=5")).body).toEqual({ n: 5 });
    expectError(
      await request(app, "GET", "/pipes/int-optional?n=five"),
      400,
      "Validation failed (numeric string is expected)",
    );
  });

  it("errorHttpStatusCode sets the status of a rejection", async () => {
    expectError(
      await request(app, "GET", "/pipes/status?a=x&b=1"),
      406,
      "Validation failed (numeric string is expected)",
    );
    expectError(
      await request(app, "GET", "/pipes/status?a=1&b=x"),
      422,
      "Validation failed (numeric string is expected)",
    );
    expect((await request(app, "GET", "/pipes/status?a=1&b=2.5")).body).toEqual({ a: 1, b: 2.5 });
  });

  it("errorHttpStatusCode throws the class Strata has for the status, as NestJS's HttpErrorByCode", () => {
    expect(() => new ParseIntPipe({ errorHttpStatusCode: 422 }).transform("x")).toThrow(
      UnprocessableEntityError,
    );
    expect(() => new ParseUUIDPipe({ errorHttpStatusCode: 404 }).transform("x")).toThrow(
      NotFoundError,
    );
    const unnamed = (() => {
      try {
        new ParseBoolPipe({ errorHttpStatusCode: 451 }).transform("x");
      } catch (error) {
        return error;
      }
    })();
    expect(unnamed).toBeInstanceOf(HttpError);
    expect(unnamed).toMatchObject({
      statusCode: 451,
      message: "Validation failed (boolean string is expected)",
    });
  });

  it("exceptionFactory makes the error from the message", async () => {
    expectError(
      await request(app, "GET", "/pipes/factory?b=maybe"),
      418,
      "teapot: Validation failed (boolean string is expected)",
    );
  });
});
