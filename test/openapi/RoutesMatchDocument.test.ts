// The router and the document cannot drift: both read a controller's scan (compiler/ControllerScan.ts),
// and nothing else of its decorators. For a set of controllers under each versioning, every route the
// app serves is described at the same method, path and version, and every described operation is
// served: a request built from the document alone (its path, query and header parameters, its body,
// its version header or media type) reaches the handler it names, with each documented value in the
// argument it documents, and answers the documented status.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import type { RouteInfo } from "../../src/compiler/AppRoutes.js";
import { scanController } from "../../src/compiler/ControllerScan.js";
import {
  ApiExcludeEndpoint,
  ApiOperation,
  Body,
  Controller,
  DefaultValuePipe,
  Delete,
  Get,
  Headers,
  HttpCode,
  Module,
  Param,
  ParseIntPipe,
  Patch,
  Post,
  Query,
  Redirect,
  type RootModule,
  RouterModule,
  type StrataAppOptions,
  VERSION_NEUTRAL,
  Version,
  VersioningType,
} from "../../src/index.js";
import type {
  JsonSchema,
  OpenApiDocument,
  Operation,
  Parameter,
} from "../../src/openapi/OpenApiDocument.js";
import { appsClosedAfterEach, expectValidOpenApi, fetchDocument } from "./support.js";

class Note extends Schema.Class<Note>("Note")({ text: Schema.String, stars: Schema.Int }) {}

@Controller("notes")
class NotesController {
  @Get()
  list(
    @Query("q") q: string | undefined,
    @Query("page", new DefaultValuePipe(1), ParseIntPipe) page: number,
    @Headers("x-trace") trace: string | undefined,
  ) {
    return { at: "NotesController.list", q, page, "x-trace": trace };
  }

  @Get(":id")
  find(@Param("id", ParseIntPipe) id: number) {
    return { at: "NotesController.find", id };
  }

  @Post()
  create(@Body(Note) body: Note) {
    return { at: "NotesController.create", body };
  }

  @Patch(":id/:field")
  @ApiOperation({ operationId: "patchNote" })
  patch(@Param("id") id: string, @Param("field") field: string, @Body("value") value: string) {
    return { at: "NotesController.patch", id, field, value };
  }

  @Delete(":id")
  @HttpCode(202)
  remove(@Param("id") id: string) {
    return { at: "NotesController.remove", id };
  }

  @Get("old/:id")
  @Redirect("/notes", 301)
  old() {}

  @Get("internal/state")
  @ApiExcludeEndpoint()
  internal() {
    return { at: "NotesController.internal" };
  }
}

class BaseController {
  @Get("base")
  base() {
    return { at: `${this.constructor.name}.base` };
  }
}

@Controller("child")
class ChildController extends BaseController {
  @Get("own/:slug")
  own(@Param("slug") slug: string, @Query("x") x?: string) {
    return { at: "ChildController.own", slug, x };
  }
}

@Controller({ path: "cats", version: "1" })
class CatsV1Controller {
  @Get(":name")
  find(@Param("name") name: string) {
    return { at: "CatsV1Controller.find", name };
  }

  @Get()
  @Version(["2", "3"])
  list() {
    return { at: "CatsV1Controller.list" };
  }
}

@Controller({ path: "cats", version: "2" })
class CatsV2Controller {
  @Get(":name")
  find(@Param("name") name: string) {
    return { at: "CatsV2Controller.find", name };
  }

  @Get("neutral/ping")
  @Version(VERSION_NEUTRAL)
  ping() {
    return { at: "CatsV2Controller.ping" };
  }
}

@Controller("plain")
class PlainController {
  @Get()
  index() {
    return { at: "PlainController.index" };
  }
}

@Module({ controllers: [PlainController] })
class PlainModule {}

@Module({
  imports: [PlainModule, RouterModule.register([{ path: "mounted", module: PlainModule }])],
  controllers: [NotesController, ChildController],
})
class UnversionedModule {}

/** Controllers declaring versions, served only with versioning on. */
@Module({ imports: [UnversionedModule], controllers: [CatsV1Controller, CatsV2Controller] })
class VersionedModule {}

/** A value of a JSON Schema (components resolved), distinct per name. */
const sample = (document: OpenApiDocument, schema: JsonSchema, name: string): unknown => {
  const json = schema as {
    readonly $ref?: string;
    readonly type?: string;
    readonly format?: string;
    readonly default?: unknown;
    readonly properties?: Readonly<Record<string, JsonSchema>>;
  };
  if (json.$ref !== undefined) {
    const component = json.$ref.slice(json.$ref.lastIndexOf("/") + 1);
    return sample(document, document.components.schemas[component] as JsonSchema, name);
  }
  if (json.type === "object") {
    return Object.fromEntries(
      Object.entries(json.properties ?? {}).map(([key, value]) => [
        key,
        sample(document, value, key),
      ]),
    );
  }
  if (json.type === "integer") return 7;
  if (json.type === "number") return 1.5;
  if (json.type === "boolean") return true;
  return `${name}-value`;
};

interface Described {
  readonly path: string;
  readonly method: string;
  readonly operation: Operation;
}

const operationsOf = (document: OpenApiDocument): ReadonlyArray<Described> =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({
      path,
      method,
      operation,
    })),
  );

/** `/notes/:id` as the document writes it. */
const documentPath = (path: string): string => path.replace(/:(\w+)/g, "{$1}");

/** The served routes of the controllers (not the docs routes, not the probes). */
const controllerRoutes = (routes: ReadonlyArray<RouteInfo>): ReadonlyArray<RouteInfo> =>
  routes.filter((route) => route.controller.endsWith("Controller"));

/** The version a request asks for, in the way `options.versioning` reads it. */
const versionHeaders = (
  options: StrataAppOptions,
  operation: Operation,
  version: string | undefined,
): Record<string, string> => {
  const versioning = options.versioning;
  if (version === undefined || versioning === undefined) return {};
  if (versioning.type === VersioningType.HEADER) {
    const header = operation.parameters?.find(
      (p) => p.in === "header" && p.name === "X-API-Version",
    );
    expect(
      (header?.schema as { readonly enum?: ReadonlyArray<string> } | undefined)?.enum,
    ).toContain(version);
    return { "x-api-version": version };
  }
  if (versioning.type === VersioningType.MEDIA_TYPE) {
    const success = Object.entries(operation.responses).find(([code]) => code.startsWith("2"));
    const mediaType = Object.keys(success?.[1].content ?? {}).find((type) =>
      type.includes(`.v${version}+`),
    );
    expect(mediaType).toBeDefined();
    return { accept: mediaType as string };
  }
  return {};
};

/** Calls the operation a route is described by, built from the document; checks what arrives. */
const callDescribed = async (
  base: string,
  document: OpenApiDocument,
  options: StrataAppOptions,
  route: RouteInfo,
  described: Described,
) => {
  const { operation } = described;
  const parameters = (operation.parameters ?? []).filter((p) => p.name !== "X-API-Version");
  const value = (p: Parameter) => sample(document, p.schema, p.name);
  let path = described.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = versionHeaders(options, operation, route.version);
  for (const p of parameters) {
    if (p.in === "path") path = path.replace(`{${p.name}}`, String(value(p)));
    else if (p.in === "query") query.set(p.name, String(value(p)));
    else if (p.in === "header") headers[p.name] = String(value(p));
  }
  const schema = operation.requestBody?.content["application/json"]?.schema;
  const body = schema === undefined ? undefined : sample(document, schema, "body");
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${base}${path}${query.size === 0 ? "" : `?${query}`}`, {
    method: route.method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: "manual",
  });
  const documented = Object.keys(operation.responses).filter((code) => /^[23]/.test(code));
  expect(documented, `${route.method} ${route.path}`).toEqual([String(response.status)]);
  if (response.status >= 300) {
    const location = operation.responses[String(response.status)]?.headers?.location?.schema as {
      readonly examples?: ReadonlyArray<string>;
    };
    expect(response.headers.get("location")).toBe(location.examples?.[0]);
    return;
  }
  const echoed = (await response.json()) as Record<string, unknown>;
  expect(echoed.at, `${route.method} ${route.path} v${route.version}`).toBe(
    `${route.controller}.${route.handler}`,
  );
  for (const p of parameters) expect(echoed[p.name], `${p.in} ${p.name}`).toEqual(value(p));
  if (body === undefined) return;
  if ("body" in echoed) expect(echoed.body).toEqual(body);
  else for (const [key, sent] of Object.entries(body as object)) expect(echoed[key]).toEqual(sent);
};

const versionings: ReadonlyArray<readonly [string, RootModule, StrataAppOptions]> = [
  ["no versioning, a global prefix", UnversionedModule, { globalPrefix: { prefix: "api" } }],
  [
    "URI versioning",
    VersionedModule,
    { versioning: { type: VersioningType.URI, defaultVersion: "1" } },
  ],
  ["HEADER versioning", VersionedModule, { versioning: { type: VersioningType.HEADER } }],
  [
    "MEDIA_TYPE versioning",
    VersionedModule,
    { versioning: { type: VersioningType.MEDIA_TYPE, vendor: "acme" } },
  ],
];

describe("the served routes and the document", () => {
  const listen = appsClosedAfterEach();

  for (const [name, module, options] of versionings) {
    it(`${name}: every route is described where it is served, and every operation is served as described`, async () => {
      const app = await listen(module, { ...options, openapi: {} });
      const document = await fetchDocument(app.getUrl());
      await expectValidOpenApi(document);
      const operations = operationsOf(document);
      const routes = controllerRoutes(app.routes);
      expect(routes.length).toBeGreaterThanOrEqual(10);

      // Every served route is described at its method and path (the excluded one aside).
      const described = routes
        .filter((route) => route.handler !== "internal")
        .map((route) => {
          const found = operations.filter(
            (o) => o.method === route.method.toLowerCase() && o.path === documentPath(route.path),
          );
          expect(found, `${route.method} ${route.path}`).toHaveLength(1);
          return [route, found[0] as Described] as const;
        });
      // Every described operation is a served route: none is described but not served.
      const served = new Set(described.map(([, operation]) => operation));
      expect(operations.filter((o) => !served.has(o))).toEqual([]);
      for (const excluded of routes.filter((r) => r.handler === "internal")) {
        expect(Object.keys(document.paths)).not.toContain(documentPath(excluded.path));
      }

      // Each served version reaches its handler when called as the document says.
      for (const [route, operation] of described) {
        await callDescribed(app.getUrl(), document, options, route, operation);
      }
    });
  }
});

describe("one reader of a controller's metadata", () => {
  // The decorators' metadata of controllers and handlers is read in compiler/ControllerScan.ts only;
  // the router and the document read the scan. Readers of other classes' metadata are named here.
  const otherReaders: Readonly<Record<string, string>> = {
    "openapi/ApiProperty.ts": "DTO properties' @ApiProperty",
    "openapi/ClassSchema.ts": "DTO properties' design types",
    "openapi/MappedTypes.ts": "DTO properties' design types",
  };
  const root = join(import.meta.dirname, "..", "..", "src");

  it("no other file of compiler/ or openapi/ reads decorator metadata", () => {
    const reads = /\b(readMetadata|readList|readOn|getMetadata|getOwnMetadata)\s*[<(]/;
    const offending = ["compiler", "openapi"].flatMap((folder) =>
      readdirSync(join(root, folder))
        .filter((file) => file.endsWith(".ts"))
        .map((file) => `${folder}/${file}`)
        .filter((file) => file !== "compiler/ControllerScan.ts" && otherReaders[file] === undefined)
        .filter((file) => reads.test(readFileSync(join(root, file), "utf8"))),
    );
    expect(offending).toEqual([]);
  });
});

describe("a controller's scan", () => {
  it("is read once and frozen, with what both sides read", () => {
    const scan = scanController(NotesController);
    expect(scanController(NotesController)).toBe(scan);
    expect(Object.isFrozen(scan) && Object.isFrozen(scan.routes)).toBe(true);
    const list = scan.routes.find((route) => route.handler === "list");
    expect(Object.isFrozen(list) && Object.isFrozen(list?.params[0])).toBe(true);
    expect(list?.params.map((p) => [p.source, p.name, p.designType])).toEqual([
      ["query", "q", Object],
      ["query", "page", Number],
      ["headers", "x-trace", Object],
    ]);
    expect(scan.routes.find((route) => route.handler === "remove")?.response.status).toBe(202);
    expect(scanController(CatsV1Controller).routes.map((r) => [r.path, r.versions])).toEqual([
      ["/cats/:name", ["1"]],
      ["/cats", ["2", "3"]],
    ]);
    expect(scanController(ChildController).routes.map((r) => r.where)).toEqual([
      "ChildController.base",
      "ChildController.own",
    ]);
  });
});
