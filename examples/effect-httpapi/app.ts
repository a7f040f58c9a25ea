// The Effect face with @effect/platform's HttpApi: a books API declared once (paths, Schemas,
// errors), implemented with StrataHttpApi (HttpApiBuilder's drop-in), served by StrataServer, described by OpenApiDocs,
// and called by a typed HttpApiClient (see test/openapi/EffectFace.test.ts).
import * as HttpApi from "@effect/platform/HttpApi";
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as OpenApi from "@effect/platform/OpenApi";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
import { NotFoundError } from "effect-strata";
import { OpenApiDocs, StrataHttpApi } from "effect-strata/effect";

/** A book as the API returns it. */
export class Book extends Schema.Class<Book>("Book")({
  id: Schema.Int,
  title: Schema.String.annotations({ examples: ["Dune"] }),
  author: Schema.String,
  year: Schema.Int,
}) {}

/** What a client sends to add a book. */
export class BookInput extends Schema.Class<BookInput>("BookInput")({
  title: Schema.Trim.pipe(Schema.nonEmptyString()),
  author: Schema.Trim.pipe(Schema.nonEmptyString()),
  year: Schema.Int.pipe(Schema.between(1450, 2100)),
}) {}

const BookId = Schema.Struct({ id: Schema.NumberFromString.pipe(Schema.int()) });

/** The API, declared once: the server, its document and its clients all come from it. */
export class BooksApi extends HttpApi.make("books")
  .add(
    HttpApiGroup.make("books")
      .add(HttpApiEndpoint.get("list", "/books").addSuccess(Schema.Array(Book)))
      .add(
        HttpApiEndpoint.get("find", "/books/:id")
          .setPath(BookId)
          .addSuccess(Book)
          .addError(NotFoundError),
      )
      .add(
        HttpApiEndpoint.post("create", "/books")
          .setPayload(BookInput)
          .addSuccess(Book, { status: 201 }),
      )
      .annotateContext(OpenApi.annotations({ title: "Books" })),
  )
  .annotateContext(OpenApi.annotations({ title: "Books API", version: "1.0.0" })) {}

/** The books, in memory. */
export class Books extends Context.Tag("examples/effect-httpapi/Books")<
  Books,
  {
    readonly list: Effect.Effect<ReadonlyArray<Book>>;
    readonly find: (id: number) => Effect.Effect<Book, NotFoundError>;
    readonly create: (input: BookInput) => Effect.Effect<Book>;
  }
>() {
  static readonly layer = Layer.sync(Books, () => {
    const books = new Map([
      [1, new Book({ id: 1, title: "Dune", author: "Frank Herbert", year: 1965 })],
    ]);
    let nextId = 2;
    return Books.of({
      list: Effect.sync(() => [...books.values()]),
      find: (id) =>
        Effect.suspend(() => {
          const book = books.get(id);
          return book === undefined
            ? Effect.fail(new NotFoundError(`No book ${id}`))
            : Effect.succeed(book);
        }),
      create: (input) =>
        Effect.sync(() => {
          const book = new Book({ id: nextId++, ...input });
          books.set(book.id, book);
          return book;
        }),
    });
  });
}

/**
 * The handlers of the books group. `StrataHttpApi.group` is `HttpApiBuilder.group` with the same
 * signature and answers, minus a context swap per request.
 */
const BooksHandlers = StrataHttpApi.group(BooksApi, "books", (handlers) =>
  Effect.map(Books, (books) =>
    handlers
      .handle("list", () => books.list)
      .handle("find", ({ path }) => books.find(path.id))
      .handle("create", ({ payload }) => books.create(payload)),
  ),
);

/**
 * The API's routes on the `HttpLayerRouter` (Strata serves them on its fast path), with the
 * platform services `HttpApiBuilder` asks for. `StrataHttpApi.addHttpApi` is
 * `HttpLayerRouter.addHttpApi`'s drop-in.
 */
export const ApiRoutes = StrataHttpApi.addHttpApi(BooksApi).pipe(
  Layer.provide(BooksHandlers),
  Layer.provide(NodeHttpServer.layerContext),
);

/** `GET /openapi.json` and the docs page at `/docs`, from the same declaration. */
export const Docs = OpenApiDocs.layer({ apis: [BooksApi], info: { title: "Books API" } });

/** Everything the app serves; provide {@link Books}. */
export const AppRoutes = Layer.mergeAll(ApiRoutes, Docs);
