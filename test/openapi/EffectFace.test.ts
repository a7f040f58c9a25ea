// The Effect face: an HttpApi served by StrataServer (examples/effect-httpapi), its document from
// OpenApiDocs, a typed HttpApiClient calling it; the OAuth routes' own description; and one
// document for an app mixing both faces.
import * as HttpApiClient from "@effect/platform/HttpApiClient";
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import { expect, it, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import {
  ApiRoutes,
  AppRoutes,
  Book,
  BookInput,
  Books,
  BooksApi,
} from "../../examples/effect-httpapi/app.js";
import { OpenApiDocs } from "../../src/effect/index.js";
import { Controller, Get, Module, StrataApp } from "../../src/index.js";
import { OAuthRoutes } from "../../src/oauth/index.js";
import type { OpenApiDocument } from "../../src/openapi/OpenApiDocument.js";
import * as FastRouter from "../../src/server/internal/FastRouter.js";
import { makeRouter } from "../../src/server/internal/ServeRouter.js";
import { MockProvider, serveTest } from "../../src/testing/index.js";
import { expectValidOpenApi } from "./support.js";

const getJson = (path: string) =>
  Effect.flatMap(HttpClient.get(path), (response) =>
    Effect.map(response.json, (body) => ({ status: response.status, body })),
  );

layer(serveTest(AppRoutes).pipe(Layer.provide(Books.layer)))(
  "an HttpApi served by StrataServer",
  (it) => {
    it.effect("a typed HttpApiClient calls it: values, typed failures", () =>
      Effect.gen(function* () {
        const client = yield* HttpApiClient.make(BooksApi);
        const dune = yield* client.books.find({ path: { id: 1 } });
        expect(dune).toBeInstanceOf(Book);
        expect(dune).toEqual(
          new Book({ id: 1, title: "Dune", author: "Frank Herbert", year: 1965 }),
        );
        const created = yield* client.books.create({
          payload: new BookInput({ title: "Emma", author: "Jane Austen", year: 1815 }),
        });
        expect(created).toEqual(
          new Book({ id: 2, title: "Emma", author: "Jane Austen", year: 1815 }),
        );
        expect((yield* client.books.list()).map((book) => book.title)).toEqual(["Dune", "Emma"]);
        const missing = yield* Effect.flip(client.books.find({ path: { id: 7 } }));
        expect(missing._tag).toBe("NotFoundError");
        expect(missing).toMatchObject({ statusCode: 404, message: "No book 7" });
      }),
    );

    it.effect("input its Schemas refuse is a 400, unknown routes the standard 404", () =>
      Effect.gen(function* () {
        const bad = yield* HttpClient.execute(
          HttpClientRequest.post("/books").pipe(
            HttpClientRequest.bodyUnsafeJson({ title: "", author: "x", year: 1 }),
          ),
        );
        expect(bad.status).toBe(400);
        expect(yield* bad.json).toMatchObject({ _tag: "HttpApiDecodeError" });
        expect(yield* getJson("/books/x")).toMatchObject({ status: 400 });
        expect(yield* getJson("/nope")).toEqual({
          status: 404,
          body: { statusCode: 404, message: "Not Found" },
        });
      }),
    );

    it.effect("its document, from the same declaration, is valid OpenAPI 3.1", () =>
      Effect.gen(function* () {
        const { status, body } = yield* getJson("/openapi.json");
        expect(status).toBe(200);
        const document = body as OpenApiDocument;
        yield* Effect.promise(() => expectValidOpenApi(document));
        expect(document.info).toEqual({ title: "Books API", version: "1.0.0" });
        expect(Object.keys(document.paths)).toEqual(["/books", "/books/{id}"]);
        expect(document.paths["/books/{id}"]?.get).toMatchObject({
          operationId: "books.find",
          tags: ["Books"],
          responses: {
            "200": {
              content: { "application/json": { schema: { $ref: "#/components/schemas/Book" } } },
            },
            "404": { description: "Not Found" },
          },
        });
        expect(document.components.schemas.Book).toMatchObject({
          properties: { title: { type: "string", examples: ["Dune"] } },
        });
        const page = yield* HttpClient.get("/docs");
        expect(page.status).toBe(200);
      }),
    );
  },
);

it.scoped(
  "HttpApi routes take StrataServer's fast path: found before the request's fiber starts",
  () =>
    Effect.gen(function* () {
      const router = yield* makeRouter({});
      yield* Layer.build(ApiRoutes.pipe(Layer.provide(Books.layer))).pipe(
        Effect.provideService(HttpLayerRouter.HttpRouter, router),
      );
      expect(FastRouter.isFastRouter(router)).toBe(true);
      const fast = (router as FastRouter.FastRouter)[FastRouter.FastRoutesId];
      expect(fast.eligible()).toBe(true);
      expect(fast.find("GET", "/books/1")?.params).toEqual({ id: "1" });
      expect(fast.find("POST", "/books")).toBeDefined();
    }),
);

@Controller("hello")
class HelloController {
  @Get()
  hello() {
    return { hello: "world" };
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

// Both faces on one server: the classic app's Layer (its document naming the HttpApi too) and
// the HttpApi's routes.
const Mixed = serveTest(
  Layer.mergeAll(
    StrataApp.layer(HelloModule, { openapi: { apis: [BooksApi], info: { title: "Both" } } }),
    ApiRoutes,
  ),
).pipe(Layer.provide(Books.layer));

layer(Mixed)("an app mixing both faces", (it) => {
  it.effect("serves both and describes both in one document", () =>
    Effect.gen(function* () {
      expect(yield* getJson("/hello")).toEqual({ status: 200, body: { hello: "world" } });
      expect((yield* getJson("/books")).status).toBe(200);
      const { body } = yield* getJson("/openapi.json");
      const document = body as OpenApiDocument;
      yield* Effect.promise(() => expectValidOpenApi(document));
      expect(document.info.title).toBe("Both");
      expect(Object.keys(document.paths).sort()).toEqual(["/books", "/books/{id}", "/hello"]);
      expect(document.tags.map((tag) => tag.name).sort()).toEqual(["Books", "Hello"]);
      expect(Object.keys(document.components.schemas)).toEqual(
        expect.arrayContaining(["Book", "BookInput", "ErrorBody"]),
      );
    }),
  );
});

// The OAuth routes on the Effect face, described by OAuthRoutes.api.
const OAuthApp = serveTest(
  Layer.mergeAll(
    OAuthRoutes.layer(),
    OpenApiDocs.layer({ apis: [OAuthRoutes.api()], docsPath: false }),
  ),
).pipe(Layer.provide(MockProvider.layer({ provider: "github" }, { provider: "google" })));

layer(OAuthApp)("the OAuth routes' description", (it) => {
  it.effect("every status and stable error code of both routes, valid OpenAPI 3.1", () =>
    Effect.gen(function* () {
      const { body } = yield* getJson("/openapi.json");
      const document = body as OpenApiDocument;
      yield* Effect.promise(() => expectValidOpenApi(document));
      const authorize = document.paths["/auth/{provider}"]?.get;
      const callback = document.paths["/auth/{provider}/callback"]?.get;
      expect(authorize?.parameters?.[0]).toMatchObject({
        name: "provider",
        in: "path",
        required: true,
        schema: { type: "string", enum: ["google", "github"] },
      });
      expect(Object.keys(authorize?.responses ?? {})).toEqual(["302", "400", "404", "429", "503"]);
      expect(authorize?.responses["302"]?.headers).toMatchObject({
        Location: {},
        "Set-Cookie": {},
        "Cache-Control": { description: "no-store" },
      });
      expect(Object.keys(callback?.responses ?? {})).toEqual([
        "200",
        "302",
        "400",
        "401",
        "404",
        "429",
        "500",
        "502",
        "503",
        "504",
      ]);
      expect(Object.keys(document.components.schemas)).not.toContain("HttpApiDecodeError");
      expect(callback?.responses["400"]?.content?.["application/json"]?.schema).toMatchObject({
        properties: { error: { enum: ["invalid_redirect"] } },
      });
      expect(callback?.responses["401"]?.content?.["application/json"]?.schema).toMatchObject({
        properties: {
          statusCode: { enum: [401] },
          error: { enum: ["invalid_state", "provider_error", "code_rejected"] },
        },
      });
      expect(document.components.schemas.OAuthCallbackResult).toBeDefined();
      // The routes answer as described.
      const unknown = yield* getJson("/auth/nope");
      expect(unknown).toEqual({
        status: 404,
        body: { statusCode: 404, message: "Unknown OAuth provider", error: "unknown_provider" },
      });
      const bad = yield* getJson("/auth/github?successRedirect=https://evil.example");
      expect(bad).toMatchObject({ status: 400, body: { error: "invalid_redirect" } });
    }),
  );
});
