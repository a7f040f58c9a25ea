import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import { expect, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { AppMiddleware, AppRoutes, Services } from "../../examples/effect-api/app.js";
import { serveTest } from "../../src/testing/index.js";

const editor = { authorization: "Bearer editor-key" };

const send = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.flatMap(HttpClient.execute(request), (response) =>
    Effect.map(response.text, (text) => ({
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : (JSON.parse(text) as unknown),
    })),
  );
const get = (path: string) => send(HttpClientRequest.get(path));
const withJson = (request: HttpClientRequest.HttpClientRequest, body: unknown, headers = editor) =>
  send(request.pipe(HttpClientRequest.setHeaders(headers), HttpClientRequest.bodyUnsafeJson(body)));

const coverForm = (bytes: Uint8Array<ArrayBuffer>) => {
  const form = new FormData();
  form.append("cover", new Blob([bytes], { type: "image/png" }), "cover.png");
  return form;
};

layer(serveTest(AppRoutes, { middleware: AppMiddleware }).pipe(Layer.provide(Services)))(
  "examples/effect-api",
  (it) => {
    it.effect("lists books in v1 and, enveloped with a count, in v2", () =>
      Effect.gen(function* () {
        const v1 = yield* get("/v1/books");
        expect(v1.status).toBe(200);
        expect(v1.body).toEqual([{ id: 1, title: "Dune", author: "Frank Herbert", year: 1965 }]);
        expect(v1.headers["x-response-time"]).toMatch(/^\d+\.\dms$/);
        expect(v1.headers["x-api"]).toBe("books");
        expect((yield* get("/v2/books")).body).toEqual({
          data: {
            count: 1,
            books: [{ id: 1, title: "Dune", author: "Frank Herbert", year: 1965 }],
          },
        });
        const unknown = yield* get("/v3/books");
        expect(unknown.status).toBe(404);
        expect(unknown.headers["x-api"]).toBe("books");
      }),
    );

    it.effect("guards writes: 401 without a key, 403 with a wrong one", () =>
      Effect.gen(function* () {
        const book = { title: "Emma", author: "Jane Austen", year: 1815 };
        expect(
          yield* withJson(HttpClientRequest.post("/v1/books"), book, {} as typeof editor),
        ).toMatchObject({
          status: 401,
          body: { statusCode: 401, message: "Missing API key" },
        });
        expect(
          yield* withJson(HttpClientRequest.post("/v1/books"), book, {
            authorization: "Bearer nope",
          }),
        ).toMatchObject({ status: 403, body: { statusCode: 403, message: "Forbidden" } });
      }),
    );

    it.effect("creates, replaces and deletes a book validated by its Schema DTO", () =>
      Effect.gen(function* () {
        expect(
          yield* withJson(HttpClientRequest.post("/v1/books"), {
            title: "  Emma ",
            author: "Jane Austen",
            year: 1815,
          }),
        ).toMatchObject({
          status: 201,
          body: { id: 2, title: "Emma", author: "Jane Austen", year: 1815 },
        });
        expect(
          yield* withJson(HttpClientRequest.put("/v1/books/2"), {
            title: "Persuasion",
            author: "Jane Austen",
            year: 1817,
          }),
        ).toMatchObject({ status: 200, body: { id: 2, title: "Persuasion" } });
        const removed = yield* send(
          HttpClientRequest.del("/v1/books/2").pipe(HttpClientRequest.setHeaders(editor)),
        );
        expect(removed.status).toBe(204);
      }),
    );

    it.effect("answers invalid input with one line per field", () =>
      Effect.gen(function* () {
        expect(
          yield* withJson(HttpClientRequest.post("/v1/books"), { title: " ", year: 1200 }),
        ).toEqual(
          expect.objectContaining({
            status: 400,
            body: {
              statusCode: 400,
              message: "Validation failed",
              errors: [
                'title: Expected a non empty string, actual ""',
                "author: is missing",
                "year: Expected a number between 1450 and 2100, actual 1200",
              ],
            },
          }),
        );
      }),
    );

    it.effect("answers a missing book through the catchTag filter", () =>
      Effect.gen(function* () {
        expect(yield* get("/v1/books/99")).toMatchObject({
          status: 404,
          body: {
            statusCode: 404,
            error: "book_not_found",
            message: "No book 99",
            path: "/v1/books/99",
          },
        });
      }),
    );

    it.effect("uploads a cover and serves it back; 413 over the limit", () =>
      Effect.gen(function* () {
        const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
        const upload = (bytes: Uint8Array<ArrayBuffer>) =>
          send(
            HttpClientRequest.post("/v1/books/1/cover").pipe(
              HttpClientRequest.setHeaders(editor),
              HttpClientRequest.bodyFormData(coverForm(bytes)),
            ),
          );
        expect(yield* upload(png)).toMatchObject({
          status: 201,
          body: { id: 1, cover: { mimetype: "image/png", size: 7 } },
        });
        const response = yield* HttpClient.get("/v1/books/1/cover");
        expect(response.headers["content-type"]).toBe("image/png");
        expect(new Uint8Array(yield* response.arrayBuffer)).toEqual(png);
        expect(yield* upload(new Uint8Array(2 * 1024 * 1024 + 1))).toMatchObject({
          status: 413,
          body: { statusCode: 413, message: "File too large (at most 2097152 bytes)" },
        });
      }),
    );
  },
);
