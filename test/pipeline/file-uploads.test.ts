import { describe, expect, it } from "vitest";
import {
  BadRequestException,
  Body,
  Controller,
  FileFieldsInterceptor,
  FileInterceptor,
  FilesInterceptor,
  FileTypeValidator,
  MaxFileSizeValidator,
  Module,
  NoFilesInterceptor,
  ParseFilePipe,
  ParseFilePipeBuilder,
  Post,
  type UploadedFile as StrataFile,
  UploadedFile,
  UploadedFiles,
  UseInterceptors,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { appsClosedAfterEach, listeningApp } from "../support/apps.js";

type Part = {
  readonly name: string;
  readonly value: string | Blob;
  readonly filename?: string;
};

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

const file = (
  name: string,
  content: string | Uint8Array<ArrayBuffer>,
  type = "text/plain",
  filename = `${name}.bin`,
) => ({ name, value: new Blob([content], { type }), filename });

/** The first bytes of a PNG: what the magic-number check reads. */
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

const describeFile = (f: StrataFile | undefined) =>
  f === undefined
    ? null
    : {
        fieldname: f.fieldname,
        originalname: f.originalname,
        mimetype: f.mimetype,
        size: f.size,
        text: f.buffer.toString("utf8"),
      };

const onlyPng = (
  _request: unknown,
  info: { readonly mimetype: string },
  callback: (error: Error | null, accept?: boolean) => void,
) => {
  if (info.mimetype === "image/png") callback(null, true);
  else if (info.mimetype === "text/skip") callback(null, false);
  else callback(new BadRequestException("Only PNG images"));
};

@Controller("files")
class FilesController {
  @Post("single")
  @UseInterceptors(FileInterceptor("file"))
  single(@UploadedFile() file: StrataFile | undefined, @Body() body: unknown) {
    return { file: describeFile(file), body: body ?? null };
  }

  @Post("builder")
  @UseInterceptors(FileInterceptor("file"))
  builder(
    @UploadedFile(
      new ParseFilePipeBuilder()
        .addFileTypeValidator({ fileType: "image/png" })
        .addMaxSizeValidator({ maxSize: 100 })
        .build({ errorHttpStatusCode: 422 }),
    )
    file: StrataFile,
  ) {
    return { size: file.size };
  }

  @Post("pipe")
  @UseInterceptors(FileInterceptor("file"))
  pipe(
    @UploadedFile(
      new ParseFilePipe({
        validators: [
          new MaxFileSizeValidator({ maxSize: 10 }),
          new FileTypeValidator({ fileType: /json/, skipMagicNumbersValidation: true }),
        ],
      }),
    )
    file: StrataFile,
  ) {
    return { json: JSON.parse(file.buffer.toString("utf8")) as unknown };
  }

  @Post("optional")
  @UseInterceptors(FileInterceptor("file"))
  optional(@UploadedFile(new ParseFilePipe({ fileIsRequired: false })) file: StrataFile) {
    return { file: file === undefined ? "none" : file.originalname };
  }

  @Post("named")
  named(@UploadedFile("doc", ParseFilePipe) doc: StrataFile) {
    return { doc: doc.originalname };
  }

  @Post("many")
  @UseInterceptors(FilesInterceptor("files", 2))
  many(@UploadedFiles() files: ReadonlyArray<StrataFile>) {
    return { names: files.map((f) => f.originalname) };
  }

  @Post("fields")
  @UseInterceptors(
    FileFieldsInterceptor([
      { name: "avatar", maxCount: 1 },
      { name: "background", maxCount: 2 },
    ]),
  )
  fields(@UploadedFiles() files: { avatar?: Array<StrataFile>; background?: Array<StrataFile> }) {
    return {
      avatar: files.avatar?.map((f) => f.originalname) ?? null,
      background: files.background?.map((f) => f.originalname) ?? null,
    };
  }

  @Post("filtered")
  @UseInterceptors(FileInterceptor("file", { fileFilter: onlyPng, limits: { fileSize: 20 } }))
  filtered(@UploadedFile() file: StrataFile | undefined) {
    return { file: file === undefined ? "skipped" : file.originalname };
  }

  @Post("form")
  @UseInterceptors(NoFilesInterceptor())
  textOnly(@Body() body: unknown) {
    return body;
  }
}

@Module({ controllers: [FilesController] })
class AppModule {}

describe("NestJS file uploads", () => {
  const app = listeningApp(AppModule);
  const post = async (path: string, parts: ReadonlyArray<Part>) => {
    const { body, headers } = await form(parts);
    return request(app, "POST", path, { body, headers });
  };

  it("gives FileInterceptor's file with multer's names beside Strata's", async () => {
    const res = await post("/files/single", [
      { name: "title", value: "cat" },
      file("file", "meow", "text/plain", "cat.txt"),
    ]);
    expect(res).toMatchObject({ status: 201 });
    expect(res.body).toEqual({
      file: {
        fieldname: "file",
        originalname: "cat.txt",
        mimetype: "text/plain",
        size: 4,
        text: "meow",
      },
      body: { title: "cat" },
    });
  });

  it("takes a file part sent as application/json as a file (was a text field and a 500)", async () => {
    const res = await post("/files/single", [
      file("file", '{"a":1}', "application/json", "data.json"),
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      file: {
        fieldname: "file",
        originalname: "data.json",
        mimetype: "application/json",
        text: '{"a":1}',
      },
    });
  });

  it("runs the handler without a file for a request that is not multipart, as with multer", async () => {
    expect(await request(app, "POST", "/files/single", { body: { title: "json" } })).toMatchObject({
      status: 201,
      body: { file: null, body: { title: "json" } },
    });
    expect(await request(app, "POST", "/files/builder", { body: { title: "json" } })).toMatchObject(
      {
        status: 422,
        body: { statusCode: 422, message: "File is required" },
      },
    );
  });

  it("answers 400 'Unexpected field' to a file under another field, as multer does", async () => {
    expect(await post("/files/single", [file("other", "x")])).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: "Unexpected field - other" },
    });
    expect(await post("/files/form", [file("file", "x")])).toMatchObject({
      status: 400,
      body: { message: "Unexpected field - file" },
    });
    expect((await post("/files/form", [{ name: "a", value: "1" }])).body).toEqual({ a: "1" });
  });

  it("runs @UploadedFile(pipe): ParseFilePipeBuilder with NestJS's messages and status", async () => {
    expect((await post("/files/builder", [file("file", png, "image/png", "a.png")])).body).toEqual({
      size: 12,
    });
    // Declared image/png, but its bytes are text: the magic numbers decide, as in NestJS 11.
    expect(await post("/files/builder", [file("file", "not a png", "image/png")])).toMatchObject({
      status: 422,
      body: {
        statusCode: 422,
        message: "Validation failed (current file type is image/png, expected type is image/png)",
      },
    });
    const big = new Uint8Array(200);
    big.set(png);
    expect(await post("/files/builder", [file("file", big, "image/png")])).toMatchObject({
      status: 422,
      body: {
        message: "Validation failed (current file size is 200, expected size is less than 100)",
      },
    });
    expect(await post("/files/builder", [{ name: "title", value: "no file" }])).toMatchObject({
      status: 422,
      body: { message: "File is required" },
    });
  });

  it("runs ParseFilePipe's validators in order, 400 by default", async () => {
    expect((await post("/files/pipe", [file("file", '{"a":1}', "application/json")])).body).toEqual(
      {
        json: { a: 1 },
      },
    );
    expect(
      await post("/files/pipe", [file("file", '{"a":"long"}', "application/json")]),
    ).toMatchObject({
      status: 400,
      body: {
        statusCode: 400,
        message: "Validation failed (current file size is 12, expected size is less than 10)",
      },
    });
    expect(await post("/files/pipe", [file("file", "x", "text/plain")])).toMatchObject({
      status: 400,
      body: {
        message: "Validation failed (current file type is text/plain, expected type is /json/)",
      },
    });
  });

  it("lets an optional file be missing, and takes a field name with a pipe class", async () => {
    expect((await post("/files/optional", [{ name: "a", value: "1" }])).body).toEqual({
      file: "none",
    });
    expect((await post("/files/named", [file("doc", "d", "text/plain", "d.txt")])).body).toEqual({
      doc: "d.txt",
    });
    expect(await post("/files/named", [file("other", "d")])).toMatchObject({
      status: 400,
      body: { message: "File is required" },
    });
  });

  it("gives FilesInterceptor's files as an array, up to maxCount", async () => {
    expect(
      (
        await post("/files/many", [
          file("files", "1", "text/plain", "1.txt"),
          file("files", "2", "text/plain", "2.txt"),
        ])
      ).body,
    ).toEqual({ names: ["1.txt", "2.txt"] });
    expect(
      await post("/files/many", [file("files", "1"), file("files", "2"), file("files", "3")]),
    ).toMatchObject({ status: 400, body: { message: "Unexpected field - files" } });
  });

  it("gives FileFieldsInterceptor's files by field", async () => {
    const res = await post("/files/fields", [
      file("avatar", "a", "text/plain", "me.png"),
      file("background", "b", "text/plain", "b1.png"),
      file("background", "c", "text/plain", "b2.png"),
    ]);
    expect(res.body).toEqual({ avatar: ["me.png"], background: ["b1.png", "b2.png"] });
    expect(
      (await post("/files/fields", [file("avatar", "a", "text/plain", "me.png")])).body,
    ).toEqual({
      avatar: ["me.png"],
      background: null,
    });
    expect(await post("/files/fields", [file("avatar", "a"), file("avatar", "b")])).toMatchObject({
      status: 400,
      body: { message: "Unexpected field - avatar" },
    });
  });

  it("honours multer's fileFilter and limits", async () => {
    expect((await post("/files/filtered", [file("file", png, "image/png", "p.png")])).body).toEqual(
      {
        file: "p.png",
      },
    );
    expect((await post("/files/filtered", [file("file", "x", "text/skip")])).body).toEqual({
      file: "skipped",
    });
    expect(await post("/files/filtered", [file("file", "x", "text/plain")])).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: "Only PNG images" },
    });
    const big = new Uint8Array(21);
    big.set(png);
    expect(await post("/files/filtered", [file("file", big, "image/png")])).toMatchObject({
      status: 413,
      body: { statusCode: 413, message: "File too large (at most 20 bytes)" },
    });
  });
});

describe("NestJS file uploads, mistakes that fail the start", () => {
  const apps = appsClosedAfterEach();

  it("@UploadedFile(pipe) with an undefined pipe throws naming the argument", () => {
    expect(() => UploadedFile(undefined as never, undefined as never)).toThrow(
      "@UploadedFile(): argument #0 is undefined, not a field name or a pipe",
    );
    expect(() => UploadedFiles("files", {} as never)).toThrow(
      "@UploadedFiles(): argument #1 is an object, not a field name or a pipe",
    );
  });

  it("refuses multer options Strata cannot honour", () => {
    expect(() => FileInterceptor("file", { dest: "./uploads" } as never)).toThrow(
      'FileInterceptor("file"): the multer option "dest" is not supported.',
    );
    expect(() => FilesInterceptor("files", 2, { limits: { parts: 3 } } as never)).toThrow(
      'FilesInterceptor("files"): the multer limit "parts" is not supported',
    );
  });

  it("refuses two file declarations on one route", async () => {
    @Controller("twice")
    @UseInterceptors(FileInterceptor("a"))
    class TwiceController {
      @Post()
      @UseInterceptors(FilesInterceptor("b"))
      upload() {
        return {};
      }
    }
    @Module({ controllers: [TwiceController] })
    class TwiceModule {}
    await expect(apps.listen(TwiceModule)).rejects.toThrow(
      'TwiceController.upload declares its files twice (FileInterceptor("a"), FilesInterceptor("b")): keep one.',
    );
  });
});
