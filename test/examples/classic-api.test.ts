import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../examples/classic-api/app.js";
import { request } from "../../src/testing/index.js";

const editor = { authorization: "Bearer editor-key" };

const coverUpload = async (bytes: Uint8Array<ArrayBuffer>, type: string) => {
  const form = new FormData();
  form.append("cover", new Blob([bytes], { type }), "cover.png");
  const response = new Response(form);
  return {
    body: new Uint8Array(await response.arrayBuffer()),
    headers: { ...editor, "content-type": response.headers.get("content-type") ?? "" },
  };
};

describe("examples/classic-api", () => {
  const app = createApp();
  beforeAll(() => app.listen(0));
  afterAll(() => app.close());

  it("lists books in v1 and, enveloped with a count, in v2", async () => {
    const v1 = await request(app, "GET", "/v1/books");
    expect(v1.status).toBe(200);
    expect(v1.body).toEqual([{ id: 1, title: "Dune", author: "Frank Herbert", year: 1965 }]);
    expect(v1.headers.get("x-response-time")).toMatch(/^\d+\.\dms$/);
    expect((await request(app, "GET", "/v2/books")).body).toEqual({
      data: { count: 1, books: [{ id: 1, title: "Dune", author: "Frank Herbert", year: 1965 }] },
    });
    expect((await request(app, "GET", "/v3/books")).status).toBe(404);
  });

  it("guards writes: 401 without a key, 403 with a wrong one", async () => {
    const book = { title: "Emma", author: "Jane Austen", year: 1815 };
    expect(await request(app, "POST", "/v1/books", { body: book })).toMatchObject({
      status: 401,
      body: { statusCode: 401, message: "Missing API key" },
    });
    expect(
      await request(app, "POST", "/v1/books", {
        body: book,
        headers: { authorization: "Bearer nope" },
      }),
    ).toMatchObject({ status: 403, body: { statusCode: 403, message: "Forbidden" } });
  });

  it("creates, replaces and deletes a book validated by its Schema DTO", async () => {
    const created = await request(app, "POST", "/v1/books", {
      body: { title: "  Emma ", author: "Jane Austen", year: 1815 },
      headers: editor,
    });
    expect(created).toMatchObject({
      status: 201,
      body: { id: 2, title: "Emma", author: "Jane Austen", year: 1815 },
    });
    expect(
      await request(app, "PUT", "/v1/books/2", {
        body: { title: "Persuasion", author: "Jane Austen", year: 1817 },
        headers: editor,
      }),
    ).toMatchObject({ status: 200, body: { id: 2, title: "Persuasion" } });
    expect((await request(app, "DELETE", "/v1/books/2", { headers: editor })).status).toBe(204);
  });

  it("answers invalid input with one line per field", async () => {
    const res = await request(app, "POST", "/v1/books", {
      body: { title: " ", year: 1200 },
      headers: editor,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      message: "Validation failed",
      errors: [
        'title: Expected a non empty string, actual ""',
        "author: is missing",
        "year: Expected a number between 1450 and 2100, actual 1200",
      ],
    });
  });

  it("answers a missing book through its exception filter", async () => {
    expect(await request(app, "GET", "/v1/books/99")).toMatchObject({
      status: 404,
      body: {
        statusCode: 404,
        error: "book_not_found",
        message: "No book 99",
        path: "/v1/books/99",
      },
    });
  });

  it("uploads a cover and serves it back", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const upload = await request(
      app,
      "POST",
      "/v1/books/1/cover",
      await coverUpload(png, "image/png"),
    );
    expect(upload).toMatchObject({
      status: 201,
      body: { id: 1, cover: { mimetype: "image/png", size: 7 } },
    });
    const res = await fetch(`${app.getUrl()}/v1/books/1/cover`);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png);
  });

  it("refuses a cover over the upload limit with 413 and a non-multipart upload with 400", async () => {
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    expect(
      await request(app, "POST", "/v1/books/1/cover", await coverUpload(big, "image/png")),
    ).toMatchObject({
      status: 413,
      body: { statusCode: 413, message: "File too large (at most 2097152 bytes)" },
    });
    expect(
      await request(app, "POST", "/v1/books/1/cover", { body: { cover: "x" }, headers: editor }),
    ).toMatchObject({ status: 400, body: { message: "Expected a multipart/form-data request" } });
  });
});
