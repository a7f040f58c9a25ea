// What cannot be described fails the start, naming the route and the field, never a request:
// Schemas JSON Schema cannot express, a response type that is no Schema, a security requirement
// without a scheme, and conflicts between the parts of one document.
import * as HttpApi from "@effect/platform/HttpApi";
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import {
  ApiOperation,
  ApiResponse,
  ApiSecurity,
  Body,
  Controller,
  Get,
  Module,
  Post,
  Query,
  type RootModule,
  StartupError,
  StrataApp,
  type StrataAppOptions,
} from "../../src/index.js";
import { appsClosedAfterEach } from "./support.js";

const Upload = Schema.Struct({ name: Schema.String, bytes: Schema.Uint8ArrayFromSelf });

@Controller("files")
class FilesController {
  @Post()
  upload(@Body(Upload) upload: unknown) {
    return upload;
  }
}

@Module({ controllers: [FilesController] })
class FilesModule {}

/** Starts `module` with `options` and returns the start's failure. */
const startFailure = async (module: RootModule, options: StrataAppOptions) => {
  const app = new StrataApp(module, { shutdown: { signals: false }, ...options });
  const error = await app.listen(0).then(
    async () => {
      await app.close();
      return undefined;
    },
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(StartupError);
  return (error as StartupError).message;
};

describe("what cannot be described", () => {
  const listen = appsClosedAfterEach();

  it("a Schema JSON Schema cannot express fails the start, naming the route and the field", async () => {
    expect(await startFailure(FilesModule, { openapi: {} })).toBe(
      'OpenAPI: FilesController.upload: the body (@Body) cannot be described in JSON Schema (Missing annotation; at path: ["bytes"]; details: Generating a JSON Schema for this schema requires a "jsonSchema" annotation; schema (Declaration): Uint8ArrayFromSelf). Give that Schema a jsonSchema annotation, or leave the route out of the document with @ApiExcludeEndpoint().',
    );
  });

  it("the same app without the option starts and answers: the description is opt-in", async () => {
    const app = await listen(FilesModule, {});
    expect((await fetch(`${app.getUrl()}/openapi.json`)).status).toBe(404);
    expect((await fetch(`${app.getUrl()}/docs`)).status).toBe(404);
  });

  it("so does a query parameter's Schema, named by the parameter", async () => {
    @Controller("search")
    class SearchController {
      @Get()
      search(@Query("since", Schema.BigIntFromSelf) since: bigint) {
        return String(since);
      }
    }
    @Module({ controllers: [SearchController] })
    class SearchModule {}
    expect(await startFailure(SearchModule, { openapi: {} })).toContain(
      'OpenAPI: SearchController.search: the query parameter "since" cannot be described in JSON Schema',
    );
  });

  it("a response type that is no Schema fails the start", async () => {
    @Controller("things")
    class ThingsController {
      @Get()
      @ApiResponse({ status: 200, type: String as never })
      list() {
        return [];
      }
    }
    @Module({ controllers: [ThingsController] })
    class ThingsModule {}
    expect(await startFailure(ThingsModule, { openapi: {} })).toBe(
      "OpenAPI: ThingsController.list: the type of @ApiResponse({ status: 200 }) is not an Effect Schema.",
    );
  });

  it("a security requirement no scheme defines fails the start; openapi.securitySchemes defines it", async () => {
    @Controller("vault")
    @ApiSecurity("apiKey")
    class VaultController {
      @Get()
      open() {
        return {};
      }
    }
    @Module({ controllers: [VaultController] })
    class VaultModule {}
    expect(await startFailure(VaultModule, { openapi: {} })).toBe(
      'OpenAPI: VaultController.open: the security requirement "apiKey" has no scheme: give one to @ApiSecurity or to openapi.securitySchemes.',
    );
    const app = await listen(VaultModule, {
      openapi: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } } },
    });
    const document = await (await fetch(`${app.getUrl()}/openapi.json`)).json();
    expect(document.paths["/vault"].get.security).toEqual([{ apiKey: [] }]);
    expect(document.components.securitySchemes.apiKey).toEqual({
      type: "apiKey",
      in: "header",
      name: "x-api-key",
    });
  });
});

describe("conflicts between the parts of one document", () => {
  it("two operations with one operationId", async () => {
    @Controller("a")
    class AController {
      @Get()
      @ApiOperation({ operationId: "list" })
      list() {
        return [];
      }
    }
    @Controller("b")
    class BController {
      @Get()
      @ApiOperation({ operationId: "list" })
      list() {
        return [];
      }
    }
    @Module({ controllers: [AController, BController] })
    class TwiceModule {}
    expect(await startFailure(TwiceModule, { openapi: {} })).toBe(
      'OpenAPI: the operationId "list" is used twice, by AController.list and BController.list: give one another with @ApiOperation({ operationId }).',
    );
  });

  it("two different Schemas with one identifier", async () => {
    class Item extends Schema.Class<Item>("Item")({ id: Schema.Int }) {}
    const OtherItem = Schema.Struct({ name: Schema.String }).annotations({ identifier: "Item" });
    const Api = HttpApi.make("other").add(
      HttpApiGroup.make("items").add(HttpApiEndpoint.get("get", "/other").addSuccess(OtherItem)),
    );
    @Controller("items")
    class ItemsController {
      @Post()
      create(@Body(Item) item: Item) {
        return item;
      }
    }
    @Module({ controllers: [ItemsController] })
    class ItemsModule {}
    expect(await startFailure(ItemsModule, { openapi: { apis: [Api] } })).toBe(
      'OpenAPI: two different Schemas are named "Item" (the controllers and the HttpApi of group "items"): give one another identifier.',
    );
  });

  it("a controller route and an HttpApi endpoint on the same method and path", async () => {
    const Api = HttpApi.make("clash").add(
      HttpApiGroup.make("items").add(HttpApiEndpoint.get("list", "/items")),
    );
    @Controller("items")
    class ItemsController {
      @Get()
      list() {
        return [];
      }
    }
    @Module({ controllers: [ItemsController] })
    class ItemsModule {}
    expect(await startFailure(ItemsModule, { openapi: { apis: [Api] } })).toBe(
      'OpenAPI: GET /items is described twice, by ItemsController.list and the HttpApi of group "items".',
    );
  });
});
