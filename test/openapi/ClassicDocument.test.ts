// The classic face's OpenAPI document: every route's method, path, parameters, body, version,
// security and responses, from decorator metadata and Schemas, served at /openapi.json.
import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import {
  ApiBearerAuth,
  ApiExcludeController,
  ApiExcludeEndpoint,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiSecurity,
  ApiTags,
  Body,
  type CanActivate,
  Controller,
  DefaultValuePipe,
  Get,
  Header,
  Headers,
  HttpCode,
  Module,
  Param,
  ParseBoolPipe,
  ParseFloatPipe,
  ParseIntPipe,
  ParseUUIDPipe,
  Patch,
  Post,
  Put,
  Query,
  Redirect,
  UploadedFile,
  UseGuards,
  UsePipes,
  ValidationPipe,
  Version,
  VersioningType,
} from "../../src/index.js";
import type { Operation } from "../../src/openapi/OpenApiDocument.js";
import { appsClosedAfterEach, expectValidOpenApi, fetchDocument } from "./support.js";

class Book extends Schema.Class<Book>("Book")({
  id: Schema.Int,
  title: Schema.String.annotations({ description: "The title", examples: ["Dune"] }),
}) {}

class BookInput extends Schema.Class<BookInput>("BookInput")({
  title: Schema.String.pipe(Schema.nonEmptyString()).annotations({ title: "Title" }),
  year: Schema.Int,
}) {}

const Paging = Schema.Struct({
  page: Schema.optional(Schema.NumberFromString),
  q: Schema.String.annotations({ description: "What to look for" }),
});

const CoverFields = Schema.Struct({ caption: Schema.String });

@ApiSecurity("session", { type: "apiKey", in: "cookie", name: "sid" })
class SessionGuard implements CanActivate {
  canActivate() {
    return true;
  }
}

class RoleGuard implements CanActivate {
  canActivate() {
    return true;
  }
}

@Controller("books")
@ApiTags("Library")
@ApiResponse({ status: 429, description: "Slow down" })
class BooksController {
  @Get()
  @ApiOperation({ summary: "All books", description: "Every book, paged" })
  @ApiOkResponse({ type: Book, isArray: true })
  list(@Query(Paging) _paging: unknown) {
    return [];
  }

  @Get(":id")
  @ApiResponse({ status: 200, type: Book })
  @ApiResponse({ status: 404, description: "No such book" })
  find(@Param("id", ParseIntPipe) id: number, @Headers("x-request-id") _id?: string) {
    return { id, title: "Dune" };
  }

  @Post()
  @UseGuards(SessionGuard, RoleGuard)
  create(@Body(BookInput) input: BookInput) {
    return input;
  }

  @Patch(":slug")
  rename(
    @Param("slug", Schema.String.pipe(Schema.pattern(/^[a-z-]+$/))) _slug: string,
    @Body("title", Schema.NonEmptyString) title: string,
    @Body("note") _note?: string,
  ) {
    return { title };
  }

  @Put(":id")
  replace(@Param("id") _id: string, @Body() input: BookInput) {
    return input;
  }

  @Post("bulk")
  @UsePipes(new ValidationPipe({ schema: Schema.Array(BookInput) }))
  bulk(@Body() books: unknown) {
    return books;
  }

  @Post(":id/cover")
  @HttpCode(200)
  cover(
    @Param("id") _id: string,
    @UploadedFile("cover") _file: unknown,
    @Body(CoverFields) fields: unknown,
  ) {
    return fields;
  }

  @Get("legacy")
  @ApiOperation({ deprecated: true, operationId: "legacyBooks" })
  @Redirect("/books", 301)
  legacy() {}

  @Get("export")
  @Header("Content-Disposition", "attachment")
  export() {
    return "";
  }

  @Get("internal")
  @ApiExcludeEndpoint()
  internal() {
    return {};
  }
}

@Controller("admin")
@ApiExcludeController()
class AdminController {
  @Get()
  index() {
    return {};
  }
}

@Controller("me")
@ApiBearerAuth()
class MeController {
  @Get()
  me() {
    return {};
  }
}

@Module({ controllers: [BooksController, AdminController, MeController] })
class AppModule {}

const json = (schema: unknown) => ({ "application/json": { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorBody = json(ref("ErrorBody"));

describe("the classic face's document", () => {
  const listen = appsClosedAfterEach();

  it("describes every route, is valid OpenAPI 3.1, and leaves out the hidden ones", async () => {
    const app = await listen(AppModule, {
      openapi: { info: { title: "Library", version: "2.0.0" } },
    });
    const document = await fetchDocument(app.getUrl());
    await expectValidOpenApi(document);
    expect(document.openapi).toBe("3.1.0");
    expect(document.info).toEqual({ title: "Library", version: "2.0.0" });
    expect(Object.keys(document.paths).sort()).toEqual([
      "/books",
      "/books/bulk",
      "/books/export",
      "/books/legacy",
      "/books/{id}",
      "/books/{id}/cover",
      "/books/{slug}",
      "/me",
    ]);
    expect(Object.keys(document.paths["/books"] ?? {})).toEqual(["get", "post"]);
    expect(document.tags).toEqual([{ name: "Library" }, { name: "Me" }]);
  });

  it("path and query parameters, headers: typed by their Schemas and pipes, annotations kept", async () => {
    const app = await listen(AppModule);
    const { paths } = await fetchDocument(app.getUrl());
    expect(paths["/books"]?.get?.parameters).toEqual([
      {
        name: "page",
        in: "query",
        required: false,
        description: "a string to be decoded into a number",
        schema: { type: "string", description: "a string to be decoded into a number" },
      },
      {
        name: "q",
        in: "query",
        required: true,
        description: "What to look for",
        schema: { type: "string", description: "What to look for" },
      },
    ]);
    expect(paths["/books/{id}"]?.get?.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "integer" } },
      { name: "x-request-id", in: "header", required: false, schema: { type: "string" } },
    ]);
    expect(paths["/books/{slug}"]?.patch?.parameters).toEqual([
      {
        name: "slug",
        in: "path",
        required: true,
        description: "a string matching the pattern ^[a-z-]+$",
        schema: {
          type: "string",
          pattern: "^[a-z-]+$",
          description: "a string matching the pattern ^[a-z-]+$",
        },
      },
    ]);
    // A path parameter without a Schema is a string.
    expect(paths["/books/{id}"]?.put?.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string" } },
    ]);
  });

  it("bodies: @Body(Dto), the parameter's Schema type, ValidationPipe({ schema }), @Body(key), uploads", async () => {
    const app = await listen(AppModule);
    const { paths, components } = await fetchDocument(app.getUrl());
    expect(paths["/books"]?.post?.requestBody).toEqual({
      required: true,
      content: json(ref("BookInput")),
    });
    expect(components.schemas.BookInput).toEqual({
      type: "object",
      required: ["title", "year"],
      properties: {
        title: { type: "string", title: "Title", description: "a non empty string", minLength: 1 },
        year: ref("Int"),
      },
      additionalProperties: false,
    });
    // `@Body() input: BookInput`: the TypeScript type, a Schema, validates and describes it.
    expect(paths["/books/{id}"]?.put?.requestBody).toEqual({
      required: true,
      content: json(ref("BookInput")),
    });
    expect(paths["/books/bulk"]?.post?.requestBody).toEqual({
      required: true,
      content: json({ type: "array", items: ref("BookInput") }),
    });
    expect(paths["/books/{slug}"]?.patch?.requestBody).toEqual({
      required: true,
      content: json({
        type: "object",
        properties: { title: ref("NonEmptyString"), note: {} },
        required: ["title"],
      }),
    });
    expect(paths["/books/{id}/cover"]?.post?.requestBody).toEqual({
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              caption: { type: "string" },
              cover: { type: "string", format: "binary" },
            },
            required: ["caption"],
          },
        },
      },
    });
  });

  it("responses: the success status and body, the standard error shape, 400 Validation failed", async () => {
    const app = await listen(AppModule);
    const { paths, components } = await fetchDocument(app.getUrl());
    const list = paths["/books"]?.get as Operation;
    expect(list).toMatchObject({
      operationId: "BooksController.list",
      summary: "All books",
      description: "Every book, paged",
      tags: ["Library"],
    });
    expect(list.responses).toEqual({
      "200": { description: "OK", content: json({ type: "array", items: ref("Book") }) },
      "400": { description: "Validation failed", content: json(ref("ValidationErrorBody")) },
      "429": { description: "Slow down" },
      default: {
        description: "Any other failure, in the standard error shape",
        content: errorBody,
      },
    });
    expect(components.schemas.Book).toMatchObject({
      properties: {
        title: { type: "string", description: "The title", examples: ["Dune"] },
      },
    });
    expect(components.schemas.ErrorBody).toEqual({
      type: "object",
      description: "The standard error body of a Strata app",
      required: ["statusCode", "message"],
      properties: {
        statusCode: { type: "integer", description: "The HTTP status", title: "int" },
        message: { type: "string" },
        errors: {
          type: "array",
          items: { type: "string" },
          description: "One line per detail",
        },
      },
      additionalProperties: false,
    });
    expect(components.schemas.ValidationErrorBody).toMatchObject({
      properties: { statusCode: { type: "number", enum: [400] } },
    });
    expect(paths["/books/{id}"]?.get?.responses).toMatchObject({
      "200": { description: "OK", content: json(ref("Book")) },
      "404": { description: "No such book" },
    });
    // POST answers 201; a body can be malformed (400) or too large (413).
    expect(Object.keys(paths["/books"]?.post?.responses ?? {})).toEqual([
      "201",
      "400",
      "401",
      "403",
      "413",
      "429",
      "default",
    ]);
    expect(paths["/books/{id}/cover"]?.post?.responses["200"]).toEqual({ description: "OK" });
    expect(paths["/books/legacy"]?.get).toMatchObject({
      operationId: "legacyBooks",
      deprecated: true,
      responses: {
        "301": {
          description: "Moved Permanently",
          headers: { location: { schema: { type: "string", examples: ["/books"] } } },
        },
      },
    });
    expect(paths["/books/export"]?.get?.responses["200"]).toEqual({
      description: "OK",
      headers: { "content-disposition": { schema: { type: "string", const: "attachment" } } },
    });
  });

  it("security: guards described with @ApiSecurity and @ApiBearerAuth require their schemes", async () => {
    const app = await listen(AppModule);
    const { paths, components } = await fetchDocument(app.getUrl());
    expect(components.securitySchemes).toEqual({
      session: { type: "apiKey", in: "cookie", name: "sid" },
      bearer: { type: "http", scheme: "bearer" },
    });
    expect(paths["/books"]?.post?.security).toEqual([{ session: [] }]);
    expect(paths["/books"]?.post?.responses["401"]).toEqual({
      description: "Unauthorized",
      content: errorBody,
    });
    expect(paths["/books"]?.post?.responses["403"]).toEqual({
      description: "Forbidden (a guard refused)",
      content: errorBody,
    });
    expect(paths["/me"]?.get?.security).toEqual([{ bearer: [] }]);
    expect(paths["/books"]?.get?.security).toBeUndefined();
  });
});

describe("versions", () => {
  const listen = appsClosedAfterEach();

  @Controller("users")
  class UsersV1 {
    @Get()
    @Version("1")
    @ApiOkResponse({ type: Schema.Array(Schema.String) })
    list() {
      return [];
    }
  }

  @Controller("users")
  class UsersV2 {
    @Get()
    @Version("2")
    @ApiOkResponse({ type: Schema.Struct({ users: Schema.Array(Schema.String) }) })
    list() {
      return { users: [] };
    }

    @Get("count")
    count() {
      return 0;
    }
  }

  @Module({ controllers: [UsersV1, UsersV2] })
  class VersionedModule {}

  it("URI: one path per version", async () => {
    const app = await listen(VersionedModule, {
      openapi: {},
      versioning: { type: VersioningType.URI, defaultVersion: "2" },
    });
    const document = await fetchDocument(app.getUrl());
    await expectValidOpenApi(document);
    expect(Object.keys(document.paths).sort()).toEqual([
      "/v1/users",
      "/v2/users",
      "/v2/users/count",
    ]);
  });

  it("HEADER: one operation per path, the version header listing its versions", async () => {
    const app = await listen(VersionedModule, {
      openapi: {},
      versioning: { type: VersioningType.HEADER, header: "Api-Version", defaultVersion: "2" },
    });
    const document = await fetchDocument(app.getUrl());
    await expectValidOpenApi(document);
    expect(document.paths["/users"]?.get?.parameters).toEqual([
      {
        name: "Api-Version",
        in: "header",
        required: false,
        description: "The API version (default 2)",
        schema: { type: "string", enum: ["1", "2"] },
      },
    ]);
  });

  it("MEDIA_TYPE: each version's body under its own media type", async () => {
    const app = await listen(VersionedModule, {
      openapi: {},
      versioning: { type: VersioningType.MEDIA_TYPE, vendor: "acme" },
    });
    const document = await fetchDocument(app.getUrl());
    await expectValidOpenApi(document);
    expect(document.paths["/users"]?.get?.responses["200"]?.content).toEqual({
      "application/vnd.acme.v1+json": { schema: { type: "array", items: { type: "string" } } },
      "application/vnd.acme.v2+json": {
        schema: {
          type: "object",
          required: ["users"],
          properties: { users: { type: "array", items: { type: "string" } } },
          additionalProperties: false,
        },
      },
    });
    // A version-neutral route keeps application/json.
    expect(document.paths["/users/count"]?.get?.responses["200"]).toEqual({ description: "OK" });
  });
});

describe("a global prefix", () => {
  const listen = appsClosedAfterEach();

  @Controller("items")
  class ItemsController {
    @Get()
    list() {
      return [];
    }

    @Get("health")
    health() {
      return {};
    }
  }

  @Module({ controllers: [ItemsController] })
  class PrefixedModule {}

  it("moves the described paths where the routes are served, excluded ones kept", async () => {
    const app = await listen(PrefixedModule, {
      openapi: {},
      versioning: { type: VersioningType.URI, defaultVersion: "1" },
      globalPrefix: { prefix: "api", exclude: ["v1/items/health"] },
    });
    expect((await fetch(`${app.getUrl()}/api/v1/items`)).status).toBe(200);
    const document = await fetchDocument(app.getUrl());
    await expectValidOpenApi(document);
    expect(Object.keys(document.paths).sort()).toEqual(["/api/v1/items", "/v1/items/health"]);
  });
});

describe("parse pipes", () => {
  const listen = appsClosedAfterEach();

  @Controller("search")
  class SearchController {
    @Get(":id")
    search(
      @Param("id", ParseUUIDPipe) _id: string,
      @Query("page", new DefaultValuePipe(1), ParseIntPipe) _page: number,
      @Query("limit", ParseIntPipe) _limit: number,
      @Query("min", ParseFloatPipe) _min: number,
      @Query("exact", new ParseBoolPipe({ optional: true })) _exact?: boolean,
    ) {
      return [];
    }
  }

  @Module({ controllers: [SearchController] })
  class SearchModule {}

  it("type the parameters they parse; a default makes one optional", async () => {
    const app = await listen(SearchModule);
    const document = await fetchDocument(app.getUrl());
    await expectValidOpenApi(document);
    expect(document.paths["/search/{id}"]?.get?.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } },
      { name: "page", in: "query", required: false, schema: { type: "integer", default: 1 } },
      { name: "limit", in: "query", required: true, schema: { type: "integer" } },
      { name: "min", in: "query", required: false, schema: { type: "number" } },
      { name: "exact", in: "query", required: false, schema: { type: "boolean" } },
    ]);
    expect(document.paths["/search/{id}"]?.get?.responses["400"]).toBeDefined();
  });
});
