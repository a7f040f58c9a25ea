import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { expect as effectExpect, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import { Validation } from "../../src/effect/index.js";
import {
  type ArgumentMetadata,
  BadRequestError,
  Body,
  Controller,
  Get,
  Headers,
  Module,
  Param,
  ParseIntPipe,
  PipeTransform,
  Post,
  Query,
  UsePipes,
  ValidationPipe,
} from "../../src/index.js";
import { request, serveTest } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

/** Appends its tag to the query parameter `v`, to observe pipe order. */
class Tag extends PipeTransform {
  constructor(private readonly tag: string) {
    super();
  }
  transform(value: unknown, _context: unknown, metadata: ArgumentMetadata) {
    return metadata.data === "v" ? `${value}>${this.tag}` : value;
  }
}

/** The same, asynchronously. */
class AsyncTag extends PipeTransform {
  constructor(private readonly tag: string) {
    super();
  }
  async transform(value: unknown, _context: unknown, metadata: ArgumentMetadata) {
    return metadata.data === "v" ? `${value}>${this.tag}` : value;
  }
}

const seen: Array<ArgumentMetadata> = [];
class Recorder extends PipeTransform {
  transform(value: unknown, _context: unknown, metadata: ArgumentMetadata) {
    seen.push(metadata);
    return value;
  }
}

class Reject extends PipeTransform {
  transform(value: unknown) {
    if (value === "bad") throw new BadRequestError("Rejected", ["value: must not be bad"]);
    if (value === "effect") return Effect.fail(new BadRequestError("Rejected by an Effect"));
    return value;
  }
}

class CreateUser extends Schema.Class<CreateUser>("CreateUser")({
  name: Schema.String.pipe(Schema.minLength(2)),
  email: Schema.String.pipe(Schema.pattern(/@/)),
  age: Schema.Number.pipe(Schema.int(), Schema.positive()),
}) {
  get greeting() {
    return `Hello ${this.name}`;
  }
}

const Page = Schema.Struct({
  page: Schema.NumberFromString,
  tags: Schema.optional(Schema.Array(Schema.String)),
});

const Counted = Schema.Struct({ count: Schema.NumberFromString });

@Controller("pipes")
@UsePipes(new Tag("controller"))
class PipesController {
  @Get("order")
  @UsePipes(new Tag("method"), new AsyncTag("method-async"))
  order(@Query("v", new Tag("param")) v: string, @Headers("x-h") h: string) {
    return { v, h };
  }

  @Get("int/:id")
  int(@Param("id", ParseIntPipe) id: number) {
    return { id };
  }

  @Get("reject")
  reject(@Query("r", Reject) r: string) {
    return { r };
  }

  @Post("users")
  create(@Body(CreateUser) user: CreateUser) {
    return { isInstance: user instanceof CreateUser, greeting: user.greeting, user };
  }

  @Post("counted")
  @UsePipes(ValidationPipe)
  counted(@Body(Counted) body: { count: number }) {
    return { count: body.count, type: typeof body.count };
  }

  @Post("counted-implicit")
  countedImplicit(@Body(Counted) body: { count: number }) {
    return { count: body.count, type: typeof body.count };
  }

  @Get("query-schema")
  querySchema(@Query(Page) query: typeof Page.Type) {
    return query;
  }

  @Get("param-schema/:id")
  paramSchema(@Param("id", Schema.NumberFromString) id: number) {
    return { id, type: typeof id };
  }

  @Post("metadata/:id")
  @UsePipes(Recorder)
  metadata(@Param("id") _id: string, @Query() _query: unknown, @Body(Counted) _body: unknown) {
    return "ok";
  }

  @Post("plain-body")
  plainBody(@Body() body: unknown) {
    return body;
  }
}

@Module({ controllers: [PipesController] })
class AppModule {}

describe("pipes", () => {
  const app = listeningApp(AppModule, {
    globalPipes: [new Tag("global"), new ValidationPipe({ onExcessProperty: "error" })],
  });

  it("runs global, controller, method, then parameter pipes, in order, on pipeable arguments only", async () => {
    const res = await request(app, "GET", "/pipes/order?v=x", { headers: { "x-h": "h" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      v: "x>global>controller>method>method-async>param",
      h: "h",
    });
  });

  it("answers a ParseIntPipe failure with its exact message", async () => {
    expect(await request(app, "GET", "/pipes/int/12")).toMatchObject({
      status: 200,
      body: { id: 12 },
    });
    expect(await request(app, "GET", "/pipes/int/1x")).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: "Validation failed (numeric string is expected)" },
    });
  });

  it("answers a pipe's thrown or failed HttpError as is", async () => {
    expect((await request(app, "GET", "/pipes/reject?r=bad")).body).toEqual({
      statusCode: 400,
      message: "Rejected",
      errors: ["value: must not be bad"],
    });
    expect((await request(app, "GET", "/pipes/reject?r=effect")).body).toEqual({
      statusCode: 400,
      message: "Rejected by an Effect",
    });
  });

  it("validates @Body(Dto) with Effect Schema and passes the decoded class instance", async () => {
    const res = await request(app, "POST", "/pipes/users", {
      body: { name: "Ada", email: "ada@example.com", age: 36 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      isInstance: true,
      greeting: "Hello Ada",
      user: { name: "Ada", email: "ada@example.com", age: 36 },
    });
  });

  it("reports one readable line per invalid field", async () => {
    const res = await request(app, "POST", "/pipes/users", {
      body: { name: "A", email: "nope", age: -1.5 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      message: "Validation failed",
      errors: [
        'name: Expected a string at least 2 character(s) long, actual "A"',
        'email: Expected a string matching the pattern @, actual "nope"',
        "age: Expected an integer, actual -1.5",
      ],
    });
  });

  it("reports missing fields, wrong types and (with onExcessProperty) unknown fields", async () => {
    const res = await request(app, "POST", "/pipes/users", {
      body: { name: 5, extra: true },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      message: "Validation failed",
      errors: [
        'extra: is unexpected, expected: "name" | "email" | "age"',
        "name: Expected string, actual 5",
        "email: is missing",
        "age: is missing",
      ],
    });
    const empty = await request(app, "POST", "/pipes/users");
    expect(empty.body).toEqual({
      statusCode: 400,
      message: "Validation failed",
      errors: ["Expected CreateUser (Encoded side), actual undefined"],
    });
  });

  it("decodes once whether a ValidationPipe is bound or not", async () => {
    for (const path of ["/pipes/counted", "/pipes/counted-implicit"]) {
      expect(await request(app, "POST", path, { body: { count: "3" } })).toMatchObject({
        status: 201,
        body: { count: 3, type: "number" },
      });
      expect((await request(app, "POST", path, { body: { count: "x" } })).body).toEqual({
        statusCode: 400,
        message: "Validation failed",
        errors: ['count: Unable to decode "x" into a number'],
      });
    }
  });

  it("validates @Query(Schema) and @Param(name, Schema)", async () => {
    expect((await request(app, "GET", "/pipes/query-schema?page=2&tags=a&tags=b")).body).toEqual({
      page: 2,
      tags: ["a", "b"],
    });
    expect((await request(app, "GET", "/pipes/query-schema?page=two")).body).toEqual({
      statusCode: 400,
      message: "Validation failed",
      errors: ['page: Unable to decode "two" into a number'],
    });
    expect((await request(app, "GET", "/pipes/param-schema/7")).body).toEqual({
      id: 7,
      type: "number",
    });
    expect((await request(app, "GET", "/pipes/param-schema/x")).body).toEqual({
      statusCode: 400,
      message: "Validation failed",
      errors: ['Unable to decode "x" into a number'],
    });
  });

  it("tells pipes which argument they transform (metatype: the DTO, else the parameter's TypeScript type)", async () => {
    seen.length = 0;
    await request(app, "POST", "/pipes/metadata/5", { body: { count: "1" } });
    expect(seen).toEqual([
      { type: "param", data: "id", metatype: String },
      { type: "query", data: undefined, metatype: Object },
      { type: "body", data: undefined, metatype: Counted },
    ]);
  });

  it("leaves arguments without a Schema to the pipes alone", async () => {
    expect(
      await request(app, "POST", "/pipes/plain-body", { body: { anything: [1, 2] } }),
    ).toMatchObject({ status: 201, body: { anything: [1, 2] } });
  });
});

const Item = Schema.Struct({ name: Schema.String, qty: Schema.Number });
const ItemRoutes = Layer.mergeAll(
  HttpLayerRouter.add(
    "POST",
    "/items/:id",
    Effect.gen(function* () {
      const { id } = yield* Validation.params(Schema.Struct({ id: Schema.NumberFromString }));
      const { dry } = yield* Validation.query(
        Schema.Struct({ dry: Schema.optional(Schema.Literal("1")) }),
      );
      const item = yield* Validation.body(Item);
      return HttpServerResponse.unsafeJson({ id, dry: dry === "1", item });
    }),
  ),
);

layer(serveTest(ItemRoutes))("validation, Effect face", (it) => {
  const post = (path: string, body: unknown) =>
    HttpClientRequest.post(path).pipe(
      HttpClientRequest.bodyUnsafeJson(body),
      HttpClient.execute,
      Effect.flatMap((response) =>
        Effect.map(response.json, (json) => ({ status: response.status, body: json })),
      ),
    );
  it.effect("decodes params, query and body, and reports every invalid field", () =>
    Effect.gen(function* () {
      effectExpect(yield* post("/items/4?dry=1", { name: "bolt", qty: 3 })).toEqual({
        status: 200,
        body: { id: 4, dry: true, item: { name: "bolt", qty: 3 } },
      });
      effectExpect(yield* post("/items/4", { qty: "3" })).toEqual({
        status: 400,
        body: {
          statusCode: 400,
          message: "Validation failed",
          errors: ["name: is missing", 'qty: Expected number, actual "3"'],
        },
      });
      effectExpect((yield* post("/items/x", {})).status).toBe(400);
    }),
  );
});
