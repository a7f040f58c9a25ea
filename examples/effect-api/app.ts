// The request pipeline, Effect face: the books API of examples/classic-api written as
// HttpLayerRouter routes. Each classic piece is an Effect combinator around a handler:
// guard = Guards.authenticate / Guards.guard, DTO = Validation.body, interceptor = a function
// from handler to handler, filter = Effect.catchTag, versioning = Versioning.add, upload =
// Uploads.read.
import type * as HttpBody from "@effect/platform/HttpBody";
import type * as HttpServerError from "@effect/platform/HttpServerError";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
import {
  type BadRequestError,
  ForbiddenError,
  NotFoundError,
  type PayloadTooLargeError,
  type RequestUser,
  UnauthorizedError,
  type UploadedFile,
  VersioningType,
} from "effect-strata";
import { Guards, Middleware, Uploads, Validation, Versioning } from "effect-strata/effect";

/** What a client sends to create or replace a book. */
export class BookInput extends Schema.Class<BookInput>("BookInput")({
  title: Schema.Trim.pipe(Schema.nonEmptyString()),
  author: Schema.Trim.pipe(Schema.nonEmptyString()),
  year: Schema.Int.pipe(Schema.between(1450, 2100)),
}) {}

export interface Book {
  readonly id: number;
  readonly title: string;
  readonly author: string;
  readonly year: number;
  readonly cover?: { readonly mimetype: string; readonly size: number };
}

interface Cover {
  readonly mimetype: string;
  readonly bytes: Uint8Array;
}

export class Books extends Context.Tag("examples/effect-api/Books")<
  Books,
  {
    readonly list: Effect.Effect<ReadonlyArray<Book>>;
    readonly find: (id: number) => Effect.Effect<Book, NotFoundError>;
    readonly create: (input: BookInput) => Effect.Effect<Book>;
    readonly replace: (id: number, input: BookInput) => Effect.Effect<Book, NotFoundError>;
    readonly remove: (id: number) => Effect.Effect<void, NotFoundError>;
    readonly setCover: (id: number, cover: UploadedFile) => Effect.Effect<Book, NotFoundError>;
    readonly cover: (id: number) => Effect.Effect<Cover, NotFoundError>;
  }
>() {
  /** An in-memory store, its state inside the Layer. */
  static readonly layer = Layer.sync(Books, () => {
    const books = new Map<number, Book>([
      [1, { id: 1, title: "Dune", author: "Frank Herbert", year: 1965 }],
    ]);
    const covers = new Map<number, Cover>();
    let nextId = 2;
    const find = (id: number) =>
      Effect.suspend(() => {
        const book = books.get(id);
        return book === undefined
          ? Effect.fail(new NotFoundError(`No book ${id}`))
          : Effect.succeed(book);
      });
    const save = (book: Book) =>
      Effect.sync(() => {
        books.set(book.id, book);
        return book;
      });
    return Books.of({
      list: Effect.sync(() => [...books.values()]),
      find,
      create: (input) => Effect.suspend(() => save({ id: nextId++, ...input })),
      replace: (id, input) => Effect.flatMap(find(id), (book) => save({ ...book, ...input })),
      remove: (id) =>
        Effect.flatMap(find(id), () =>
          Effect.sync(() => {
            books.delete(id);
            covers.delete(id);
          }),
        ),
      setCover: (id, cover) =>
        Effect.flatMap(find(id), (book) => {
          covers.set(id, { mimetype: cover.mimetype, bytes: cover.buffer });
          return save({ ...book, cover: { mimetype: cover.mimetype, size: cover.size } });
        }),
      cover: (id) =>
        Effect.suspend(() => {
          const cover = covers.get(id);
          return cover === undefined
            ? Effect.fail(new NotFoundError(`Book ${id} has no cover`))
            : Effect.succeed(cover);
        }),
    });
  });
}

export class Editors extends Context.Tag("examples/effect-api/Editors")<
  Editors,
  { readonly byKey: (key: string) => RequestUser | undefined }
>() {
  static readonly layer = Layer.succeed(Editors, {
    byKey: (key) => (key === "editor-key" ? { id: 1, username: "ada", role: "editor" } : undefined),
  });
}

// Guard: authenticate the API key (401 without one, 403 for an unknown one), then require
// the editor role; the handler reads the user from Guards.CurrentUser.
const apiKeyUser = Effect.gen(function* () {
  const header = (yield* HttpServerRequest.HttpServerRequest).headers.authorization;
  if (header === undefined) return yield* new UnauthorizedError("Missing API key");
  const user = (yield* Editors).byKey(header.replace(/^Bearer /, ""));
  return user ?? (yield* new ForbiddenError());
});
const editorsOnly = <A, E, R>(handler: Effect.Effect<A, E, R>) =>
  handler.pipe(
    Guards.guard(Effect.map(Guards.CurrentUser, (user) => user.role === "editor")),
    Guards.authenticate(apiKeyUser),
  );

// Interceptors: functions from a handler to a handler.
const responseTime = <E, R>(handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.map(Effect.timed(handler), ([elapsed, response]) =>
    HttpServerResponse.setHeader(
      response,
      "x-response-time",
      `${Duration.toMillis(elapsed).toFixed(1)}ms`,
    ),
  );
const envelope = <E, R>(handler: Effect.Effect<unknown, E, R>) =>
  Effect.map(handler, (data) => HttpServerResponse.unsafeJson({ data }));

/** Every failure the routes may have: HTTP errors (typed) and response encoding failures. */
type AppError =
  | BadRequestError
  | UnauthorizedError
  | ForbiddenError
  | NotFoundError
  | PayloadTooLargeError
  | HttpServerError.ResponseError
  | HttpBody.HttpBodyError;

// Exception filter: a recovery of the tagged failure; every route goes through it, around the
// response-time interceptor.
const pipeline = <R>(handler: Effect.Effect<HttpServerResponse.HttpServerResponse, AppError, R>) =>
  responseTime(handler).pipe(
    Effect.catchTag("NotFoundError", (error) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        HttpServerResponse.json(
          { statusCode: 404, error: "book_not_found", message: error.message, path: request.url },
          { status: 404 },
        ),
      ),
    ),
  );

const bookId = Effect.map(
  Validation.params(Schema.Struct({ id: Schema.NumberFromString.pipe(Schema.int()) })),
  ({ id }) => id,
);
const json = (body: unknown, status?: number) => HttpServerResponse.unsafeJson(body, { status });

const listV1 = Effect.map(
  Effect.flatMap(Books, (books) => books.list),
  (list) => json(list),
);
const listV2 = envelope(
  Effect.map(
    Effect.flatMap(Books, (books) => books.list),
    (list) => ({ count: list.length, books: list }),
  ),
);
const find = Effect.gen(function* () {
  return json(yield* (yield* Books).find(yield* bookId));
});
const create = editorsOnly(
  Effect.gen(function* () {
    const input = yield* Validation.body(BookInput);
    return json(yield* (yield* Books).create(input), 201);
  }),
);
const replace = editorsOnly(
  Effect.gen(function* () {
    const id = yield* bookId;
    const input = yield* Validation.body(BookInput);
    return json(yield* (yield* Books).replace(id, input));
  }),
);
const remove = editorsOnly(
  Effect.gen(function* () {
    yield* (yield* Books).remove(yield* bookId);
    return HttpServerResponse.empty({ status: 204 });
  }),
);
const uploadCover = editorsOnly(
  Effect.gen(function* () {
    const id = yield* bookId;
    const { files } = yield* Uploads.read({ fileSize: 2 * 1024 * 1024, files: 1 });
    const cover = files.find((file) => file.fieldname === "cover");
    if (cover === undefined) return yield* new NotFoundError("No cover field in the upload");
    return json(yield* (yield* Books).setCover(id, cover), 201);
  }),
);
const cover = Effect.gen(function* () {
  const { mimetype, bytes } = yield* (yield* Books).cover(yield* bookId);
  return HttpServerResponse.uint8Array(bytes, { contentType: mimetype });
});

const uri = { type: VersioningType.URI } as const;

/** Every route of the app; serve it, then provide {@link Services}. */
export const AppRoutes = Layer.mergeAll(
  Versioning.add(uri, "GET", "/books", { "1": pipeline(listV1), "2": pipeline(listV2) }),
  Versioning.add(uri, "POST", "/books", { "1": pipeline(create) }),
  Versioning.add(uri, "GET", "/books/:id", { "1": pipeline(find) }),
  Versioning.add(uri, "PUT", "/books/:id", { "1": pipeline(replace) }),
  Versioning.add(uri, "DELETE", "/books/:id", { "1": pipeline(remove) }),
  Versioning.add(uri, "POST", "/books/:id/cover", { "1": pipeline(uploadCover) }),
  Versioning.add(uri, "GET", "/books/:id/cover", { "1": pipeline(cover) }),
);

/**
 * The app's middleware: every response, errors and unknown paths included, says which API
 * answered. A `decorating` middleware (it only looks at the request, then changes the
 * response): one Effect step a request, and one with any other decorating middleware composed
 * next to it.
 */
export const AppMiddleware = Middleware.decorating(
  () => (response) => HttpServerResponse.setHeader(response, "x-api", "books"),
);

/** The services the routes need. */
export const Services = Layer.mergeAll(Books.layer, Editors.layer);
