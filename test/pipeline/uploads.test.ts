import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { expect as effectExpect, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import { Uploads } from "../../src/effect/index.js";
import {
  Body,
  Controller,
  Module,
  Post,
  UploadedFile,
  UploadedFiles,
  UseGuards,
} from "../../src/index.js";
import { DEFAULT_UPLOAD_LIMITS } from "../../src/pipeline/Uploads.js";
import { request, serveTest } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

type Part = { readonly name: string; readonly value: string | Blob; readonly filename?: string };

/** A multipart/form-data body as the platform's FormData serializes it. */
const form = async (parts: ReadonlyArray<Part>) => {
  const data = new FormData();
  for (const part of parts) {
    if (typeof part.value === "string") data.append(part.name, part.value);
    else data.append(part.name, part.value, part.filename);
  }
  const response = new Response(data);
  return {
    body: new Uint8Array(await response.arrayBuffer()),
    headers: { "content-type": response.headers.get("content-type") ?? "" },
  };
};

const file = (name: string, content: string, filename = `${name}.txt`, type = "text/plain") => ({
  name,
  value: new Blob([content], { type }),
  filename,
});

const describeFile = (f: UploadedFile | undefined) =>
  f === undefined
    ? null
    : {
        fieldname: f.fieldname,
        filename: f.filename,
        size: f.size,
        mimetype: f.mimetype,
        text: f.buffer.toString("utf8"),
        isBuffer: Buffer.isBuffer(f.buffer),
      };

const Meta = Schema.Struct({ title: Schema.String.pipe(Schema.minLength(1)) });

@Controller("upload")
class UploadController {
  @Post("avatar")
  avatar(@UploadedFile("avatar") avatar: UploadedFile | undefined, @Body() fields: unknown) {
    return { avatar: describeFile(avatar), fields };
  }

  @Post("docs")
  docs(
    @UploadedFiles("docs") docs: ReadonlyArray<UploadedFile>,
    @UploadedFiles() all: ReadonlyArray<UploadedFile>,
  ) {
    return { docs: docs.map(describeFile), all: all.length };
  }

  @Post("validated")
  validated(@UploadedFile() first: UploadedFile, @Body(Meta) meta: typeof Meta.Type) {
    return { title: meta.title, file: first.filename };
  }

  @Post("guarded")
  @UseGuards({ canActivate: (context) => context.headers["x-key"] === "k" })
  guarded(@UploadedFile("f") f: UploadedFile) {
    return { size: f.size };
  }
}

@Module({ controllers: [UploadController] })
class AppModule {}

describe("uploads", () => {
  const app = listeningApp(AppModule, {
    uploads: { fileSize: 16, files: 2, fields: 3, fieldSize: 8 },
  });
  const post = async (path: string, parts: ReadonlyArray<Part>, headers = {}) => {
    const { body, headers: formHeaders } = await form(parts);
    return request(app, "POST", path, { body, headers: { ...formHeaders, ...headers } });
  };

  it("has documented default limits", () => {
    expect(DEFAULT_UPLOAD_LIMITS).toEqual({
      fileSize: 10 * 1024 * 1024,
      files: 10,
      fields: 100,
      fieldSize: 1024 * 1024,
      totalSize: 50 * 1024 * 1024,
    });
  });

  it("gives @UploadedFile the file and @Body the text fields", async () => {
    const res = await post("/upload/avatar", [
      { name: "user", value: "ada" },
      { name: "tag", value: "a" },
      { name: "tag", value: "b" },
      file("avatar", "PNG-bytes", "me.png", "image/png"),
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      avatar: {
        fieldname: "avatar",
        filename: "me.png",
        size: 9,
        mimetype: "image/png",
        text: "PNG-bytes",
        isBuffer: true,
      },
      fields: { user: "ada", tag: ["a", "b"] },
    });
  });

  it("gives undefined for a missing file", async () => {
    expect((await post("/upload/avatar", [{ name: "user", value: "x" }])).body).toEqual({
      avatar: null,
      fields: { user: "x" },
    });
  });

  it("gives @UploadedFiles every file of a field, or all of them", async () => {
    const res = await post("/upload/docs", [file("docs", "one"), file("docs", "two")]);
    expect(res.body).toMatchObject({
      docs: [
        { fieldname: "docs", filename: "docs.txt", text: "one" },
        { fieldname: "docs", filename: "docs.txt", text: "two" },
      ],
      all: 2,
    });
  });

  it("accepts uploads exactly at each limit", async () => {
    const res = await post("/upload/avatar", [
      { name: "a", value: "12345678" },
      { name: "b", value: "b" },
      { name: "c", value: "c" },
      file("avatar", "x".repeat(16)),
      file("other", "y"),
    ]);
    expect(res.status).toBe(201);
    expect((res.body as { avatar: { size: number } }).avatar.size).toBe(16);
  });

  it("answers 413 over the file size limit", async () => {
    expect(await post("/upload/avatar", [file("avatar", "x".repeat(17))])).toMatchObject({
      status: 413,
      body: { statusCode: 413, message: "File too large (at most 16 bytes)" },
    });
  });

  it("answers 413 over the file count limit", async () => {
    expect(
      await post("/upload/docs", [file("docs", "1"), file("docs", "2"), file("docs", "3")]),
    ).toMatchObject({
      status: 413,
      body: { statusCode: 413, message: "Too many files (at most 2)" },
    });
  });

  it("answers 413 over the field count limit", async () => {
    const fields = ["a", "b", "c", "d"].map((name) => ({ name, value: name }));
    expect(await post("/upload/avatar", fields)).toMatchObject({
      status: 413,
      body: { statusCode: 413, message: "Too many fields (at most 3)" },
    });
  });

  it("answers 413 over the field size limit", async () => {
    expect(await post("/upload/avatar", [{ name: "a", value: "123456789" }])).toMatchObject({
      status: 413,
      body: { statusCode: 413, message: "Field too large (at most 8 bytes)" },
    });
  });

  it("answers 413 to a large upload while the client is still sending", async () => {
    const res = await post("/upload/avatar", [file("avatar", "z".repeat(4 * 1024 * 1024))]);
    expect(res.status).toBe(413);
  });

  it("answers 400 to a request that is not multipart/form-data", async () => {
    expect(await request(app, "POST", "/upload/avatar", { body: { avatar: "x" } })).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: "Expected a multipart/form-data request" },
    });
    expect(
      await request(app, "POST", "/upload/avatar", {
        body: "x",
        headers: { "content-type": "multipart/form-data" },
      }),
    ).toMatchObject({ status: 400, body: { message: "Expected a multipart/form-data request" } });
  });

  it("answers 400 to a malformed multipart body", async () => {
    const headers = { "content-type": "multipart/form-data; boundary=XyZ" };
    for (const body of [
      "not multipart at all",
      '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nabc',
      "--XyZ\r\nContent-Disposition: form-data\r\n\r\nabc\r\n--XyZ--\r\n",
    ]) {
      expect(await request(app, "POST", "/upload/avatar", { body, headers })).toMatchObject({
        status: 400,
        body: { statusCode: 400, message: "Malformed multipart body" },
      });
    }
  });

  it("validates the text fields with @Body(Schema)", async () => {
    expect(
      (await post("/upload/validated", [{ name: "title", value: "T" }, file("f", "1")])).body,
    ).toEqual({ title: "T", file: "f.txt" });
    expect(
      (await post("/upload/validated", [{ name: "title", value: "" }, file("f", "1")])).body,
    ).toEqual({
      statusCode: 400,
      message: "Validation failed",
      errors: ['title: Expected a string at least 1 character(s) long, actual ""'],
    });
  });

  it("runs guards before reading the upload", async () => {
    expect((await post("/upload/guarded", [file("f", "x".repeat(100))])).status).toBe(403);
    expect((await post("/upload/guarded", [file("f", "abc")], { "x-key": "k" })).body).toEqual({
      size: 3,
    });
  });
});

/** Counts the uploads that reached a handler: none may when a limit is passed. */
const reached = { count: 0 };

@Controller("total")
class TotalController {
  @Post()
  total(@UploadedFiles() files: ReadonlyArray<UploadedFile>, @Body() fields: object) {
    reached.count++;
    return { files: files.length, fields: Object.keys(fields).length };
  }
}

@Module({ controllers: [TotalController] })
class TotalModule {}

describe("uploads, total size", () => {
  const small = listeningApp(TotalModule, {
    uploads: { fileSize: 16, files: 5, fields: 5, fieldSize: 8, totalSize: 40 },
  });
  const large = listeningApp(TotalModule, {
    uploads: { fileSize: 1024 * 1024, files: 100, totalSize: 2 * 1024 * 1024 },
  });
  const post = async (app: typeof small, parts: ReadonlyArray<Part>) => {
    const { body, headers } = await form(parts);
    return request(app, "POST", "/total", { body, headers });
  };
  const fields = (count: number, value = "12345678") =>
    Array.from({ length: count }, (_, i) => ({ name: `f${i}`, value }));
  const files = (count: number, size: number) =>
    Array.from({ length: count }, (_, i) => file(`file${i}`, "x".repeat(size)));
  const tooLarge = (bytes: number) => ({
    status: 413,
    body: { statusCode: 413, message: `Upload too large (at most ${bytes} bytes in all)` },
  });

  it("check 40: answers 413 when parts each within their limits pass totalSize together", async () => {
    const before = reached.count;
    // Three files of 16 bytes: each at the file limit, 48 bytes together.
    const response = await post(small, files(3, 16));
    expect(response).toMatchObject(tooLarge(40));
    expect(response.body).toEqual(tooLarge(40).body);
    expect(reached.count).toBe(before);
    // Exactly at the total is fine.
    expect((await post(small, [...files(2, 16), ...files(1, 8)])).body).toEqual({
      files: 3,
      fields: 0,
    });
    expect(reached.count).toBe(before + 1);
  });

  it("check 40: field values count toward totalSize", async () => {
    const before = reached.count;
    expect((await post(small, fields(5))).body).toEqual({ files: 0, fields: 5 });
    expect((await post(small, [...fields(3), ...files(1, 16)])).body).toEqual({
      files: 1,
      fields: 3,
    });
    expect(reached.count).toBe(before + 2);
    for (const parts of [
      [...fields(4), ...files(1, 9)], // the file passes the total
      [...files(2, 16), ...fields(1), { name: "last", value: "1" }], // a field passes it
      [...fields(5), ...files(1, 1)],
    ]) {
      expect(await post(small, parts)).toMatchObject(tooLarge(40));
    }
    expect(reached.count).toBe(before + 2);
  });

  it("check 40: answers 413 to many parts under the part limit while the client is still sending", async () => {
    const before = reached.count;
    // Six files of 1 MB each (the file limit), 6 MB against a total of 2 MB.
    const response = await post(large, files(6, 1024 * 1024));
    expect(response).toMatchObject(tooLarge(2 * 1024 * 1024));
    expect(reached.count).toBe(before);
    // The server is still serving uploads after it.
    expect((await post(large, files(2, 1024 * 1024))).body).toEqual({ files: 2, fields: 0 });
  });
});

const Upload = HttpLayerRouter.add(
  "POST",
  "/files",
  Effect.gen(function* () {
    const { fields, files } = yield* Uploads.read({ fileSize: 4, totalSize: 6 });
    return HttpServerResponse.unsafeJson({
      fields,
      files: files.map((f) => ({ name: f.filename, size: f.size })),
    });
  }),
);

layer(serveTest(Upload))("uploads, Effect face", (it) => {
  const send = (parts: ReadonlyArray<Part>) =>
    Effect.gen(function* () {
      const { body, headers } = yield* Effect.promise(() => form(parts));
      const response = yield* HttpClientRequest.post("/files").pipe(
        HttpClientRequest.bodyUint8Array(body, headers["content-type"]),
        HttpClient.execute,
      );
      return { status: response.status, body: yield* response.json };
    });
  it.effect("reads fields and files within the limits", () =>
    Effect.gen(function* () {
      effectExpect(yield* send([{ name: "a", value: "1" }, file("f", "abcd")])).toEqual({
        status: 200,
        body: { fields: { a: "1" }, files: [{ name: "f.txt", size: 4 }] },
      });
      effectExpect(yield* send([file("f", "abcde")])).toEqual({
        status: 413,
        body: { statusCode: 413, message: "File too large (at most 4 bytes)" },
      });
      effectExpect(yield* send([file("f", "abcd"), file("g", "abc")])).toEqual({
        status: 413,
        body: { statusCode: 413, message: "Upload too large (at most 6 bytes in all)" },
      });
    }),
  );
});
