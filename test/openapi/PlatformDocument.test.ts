// OpenApiDocs writes the document `OpenApi.fromApi` writes for an HttpApi: the API's own
// annotations (title, version, description, summary, license, servers, override, transform) and
// `fromApi`'s `additionalPropertiesStrategy`, whatever document `fromApi` cached before; the
// options given win field by field. The classic face takes the same strategy.
import * as HttpApi from "@effect/platform/HttpApi";
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as HttpClient from "@effect/platform/HttpClient";
import * as OpenApi from "@effect/platform/OpenApi";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { OpenApiDocs } from "../../src/effect/index.js";
import { Body, Controller, Module, Post } from "../../src/index.js";
import type { OpenApiDocument } from "../../src/openapi/OpenApiDocument.js";
import { serveTest } from "../../src/testing/index.js";
import { appsClosedAfterEach, expectValidOpenApi, fetchDocument } from "./support.js";

const Book = Schema.Struct({ id: Schema.Int, title: Schema.String }).annotations({
  identifier: "Book",
});

const booksGroup = () =>
  HttpApiGroup.make("books").add(HttpApiEndpoint.get("find", "/books/:id").addSuccess(Book));

const server = {
  url: "https://{region}.books.example",
  description: "production",
  variables: { region: { default: "eu", enum: ["eu", "us"] as [string, string] } },
};

/** An API saying all `OpenApi.annotations` can say about itself. */
const annotatedApi = () =>
  HttpApi.make("books")
    .add(booksGroup())
    .annotateContext(
      OpenApi.annotations({
        title: "Books",
        version: "2.1.0",
        description: "Every book we hold",
        summary: "Books",
        license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
        servers: [server],
        override: { tags: [{ name: "books", description: "The catalogue" }] },
        transform: (spec) => ({ ...spec, tags: [...spec.tags, { name: "extra" }] }),
      }),
    );

/** The document `OpenApiDocs.layer(options)` serves, over HTTP. */
const served = (options: OpenApiDocs.OpenApiDocsOptions) =>
  Effect.provide(
    Effect.flatMap(HttpClient.get("/openapi.json"), (response) =>
      Effect.map(response.json, (body) => ({ status: response.status, document: body })),
    ),
    serveTest(OpenApiDocs.layer({ docsPath: false, ...options })),
  );

const additionalProperties = (document: OpenApiDocument) =>
  (document.components.schemas.Book as { additionalProperties?: unknown }).additionalProperties;

describe("OpenApiDocs: the document OpenApi.fromApi writes", () => {
  it.live("called with `apis` alone, it serves the API's annotations as fromApi writes them", () =>
    Effect.gen(function* () {
      const { status, document } = yield* served({ apis: [annotatedApi()] });
      expect(status).toBe(200);
      expect(document).toEqual(OpenApi.fromApi(annotatedApi()));
      expect(document).toMatchObject({
        info: {
          title: "Books",
          version: "2.1.0",
          description: "Every book we hold",
          summary: "Books",
          license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
        },
        servers: [server],
        tags: [{ name: "books", description: "The catalogue" }, { name: "extra" }],
      });
      yield* Effect.promise(() => expectValidOpenApi(document));
    }),
  );

  it.effect("an API without annotations gets fromApi's title and version", () =>
    Effect.gen(function* () {
      const api = HttpApi.make("plain").add(booksGroup());
      const document = yield* OpenApiDocs.document({ apis: [api] });
      expect(document).toEqual(OpenApi.fromApi(HttpApi.make("plain").add(booksGroup())));
      expect(document.info).toEqual({ title: "Api", version: "0.0.1" });
      expect(document.servers).toBeUndefined();
    }),
  );

  it.effect("the options' info and servers win field by field; several APIs' servers add up", () =>
    Effect.gen(function* () {
      const other = HttpApi.make("other")
        .add(HttpApiGroup.make("authors").add(HttpApiEndpoint.get("all", "/authors")))
        .annotate(OpenApi.Servers, [{ url: "https://authors.example" }, server]);
      const document = yield* OpenApiDocs.document({
        apis: [
          HttpApi.make("plain").add(
            HttpApiGroup.make("shelves").add(HttpApiEndpoint.get("all", "/shelves")),
          ),
          annotatedApi(),
          other,
        ],
        info: { title: "Library" },
      });
      // Title given; the version of the first API that states one (not fromApi's default).
      expect(document.info).toEqual({
        title: "Library",
        version: "2.1.0",
        description: "Every book we hold",
        summary: "Books",
        license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
      });
      expect(document.servers).toEqual([server, { url: "https://authors.example" }]);
      const given = yield* OpenApiDocs.document({
        apis: [annotatedApi()],
        servers: [{ url: "https://mirror.example" }],
        info: { license: { name: "Apache-2.0" } },
      });
      expect(given.servers).toEqual([{ url: "https://mirror.example" }]);
      expect(given.info.license).toEqual({ name: "Apache-2.0" });
    }),
  );

  it.effect("with no API listed the title is API, the version 1.0.0", () =>
    Effect.gen(function* () {
      const document = yield* OpenApiDocs.document({});
      expect(document.info).toEqual({ title: "API", version: "1.0.0" });
    }),
  );

  it.effect(
    'additionalPropertiesStrategy: "allow" as fromApi, whatever fromApi cached before',
    () =>
      Effect.gen(function* () {
        const api = HttpApi.make("books").add(booksGroup());
        // A strict document of this very API, cached by fromApi before Strata asks.
        expect(additionalProperties(OpenApi.fromApi(api) as unknown as OpenApiDocument)).toBe(
          false,
        );
        const allowed = yield* OpenApiDocs.document({
          apis: [api],
          additionalPropertiesStrategy: "allow",
        });
        expect(additionalProperties(allowed)).toBe(true);
        expect(allowed).toEqual(
          OpenApi.fromApi(HttpApi.make("books").add(booksGroup()), {
            additionalPropertiesStrategy: "allow",
          }),
        );
        // And the other way round: an "allow" document cached first, the default stays strict.
        const open = HttpApi.make("books").add(booksGroup());
        OpenApi.fromApi(open, { additionalPropertiesStrategy: "allow" });
        expect(additionalProperties(yield* OpenApiDocs.document({ apis: [open] }))).toBe(false);
      }),
  );
});

describe("the classic face: additionalPropertiesStrategy, the APIs' own info", () => {
  const listen = appsClosedAfterEach();

  class NoteInput extends Schema.Class<NoteInput>("NoteInput")({ text: Schema.String }) {}

  @Controller("notes")
  class NotesController {
    @Post()
    create(@Body() input: NoteInput) {
      return input;
    }
  }

  @Module({ controllers: [NotesController] })
  class NotesModule {}

  it("describes the controllers' Schemas open, beside an HttpApi's, with no conflict", async () => {
    const app = await listen(NotesModule, {
      openapi: {
        apis: [HttpApi.make("books").add(booksGroup())],
        additionalPropertiesStrategy: "allow",
      },
    });
    const document = await fetchDocument(app.getUrl());
    expect(document.components.schemas.NoteInput).toMatchObject({ additionalProperties: true });
    expect(additionalProperties(document)).toBe(true);
    // Beside controllers, a title and version no API states are Strata's.
    expect(document.info).toEqual({ title: "API", version: "1.0.0" });
    await expectValidOpenApi(document);
  });

  it("takes what an annotated HttpApi says about itself", async () => {
    const app = await listen(NotesModule, { openapi: { apis: [annotatedApi()] } });
    const document = await fetchDocument(app.getUrl());
    expect(document.info).toEqual(OpenApi.fromApi(annotatedApi()).info);
    expect(document.servers).toEqual([server]);
  });
});
