import * as http from "node:http";
import * as Effect from "effect/Effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BODY_LIMIT } from "../../src/http/RequestBody.js";
import {
  BadRequestError,
  BadRequestException,
  Body,
  ConflictError,
  ConflictException,
  Controller,
  ForbiddenError,
  ForbiddenException,
  Get,
  Headers,
  HttpError,
  InternalServerError,
  InternalServerErrorException,
  Module,
  NotFoundError,
  NotFoundException,
  Param,
  Post,
  Req,
  type RequestContext,
  StrataApp,
  UnauthorizedError,
  UnauthorizedException,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";

const errorClasses = {
  BadRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  InternalServerError,
} as const;
type ErrorName = keyof typeof errorClasses;

const isErrorName = (name: string): name is ErrorName => name in errorClasses;

@Controller("errors")
class ErrorsController {
  @Get("default/:name")
  byDefault(@Param("name") name: string) {
    if (!isErrorName(name)) return "unknown";
    throw new errorClasses[name]();
  }

  @Get("custom/:name")
  custom(@Param("name") name: string) {
    if (!isErrorName(name)) return "unknown";
    throw new errorClasses[name](`Custom ${name}`);
  }

  @Get("details")
  details() {
    throw new BadRequestError("Invalid input", ["name is required", "age must be a number"]);
  }

  @Get("base")
  base() {
    throw new HttpError(418, "I'm a teapot");
  }

  @Get("alias")
  alias() {
    throw new ConflictException("Already exists");
  }

  @Get("plain-error")
  plainError() {
    throw new Error("secret database password is hunter2");
  }

  @Get("plain-error-async")
  async plainErrorAsync() {
    throw new TypeError("secret async failure");
  }

  @Get("string")
  thrownString() {
    throw "secret string";
  }

  @Get("object")
  thrownObject() {
    throw { statusCode: 403, message: "secret object" };
  }

  @Get("die")
  die() {
    return Effect.die(new Error("secret defect"));
  }

  @Get("effect-fail-unknown")
  effectFailUnknown() {
    return Effect.fail(new Error("secret failure"));
  }

  @Get("ok")
  ok() {
    return { ok: true };
  }

  @Post("echo")
  echo(@Body() body: unknown, @Headers("transfer-encoding") transferEncoding: string | undefined) {
    return {
      size: typeof body === "string" ? body.length : JSON.stringify(body).length,
      chunked: transferEncoding === "chunked",
    };
  }

  @Post("req-echo")
  reqEcho(@Req() req: RequestContext) {
    return { hasBody: req.body !== undefined };
  }

  @Post("no-body")
  noBody() {
    return { read: false };
  }
}

@Module({ controllers: [ErrorsController] })
class AppModule {}

const app = new StrataApp(AppModule);

const SMALL_LIMIT = 64;

@Controller("small")
class SmallController {
  @Post()
  echo(@Body() body: unknown) {
    return { body };
  }

  @Get()
  ok() {
    return "ok";
  }
}

@Module({ controllers: [SmallController] })
class SmallModule {}

const small = new StrataApp(SmallModule, { bodyLimit: SMALL_LIMIT });

beforeAll(async () => {
  await Promise.all([app.listen(0), small.listen(0)]);
});

afterAll(async () => {
  await Promise.all([app.close(), small.close()]);
});

const internalError = { statusCode: 500, message: "Internal Server Error" };
const payloadTooLarge = { statusCode: 413, message: "Payload Too Large" };

const expectJson = (headers: globalThis.Headers) =>
  expect(headers.get("content-type")).toMatch(/^application\/json/);

const expectStillServing = async (target: StrataApp = app) => {
  const res =
    target === app
      ? await request(app, "GET", "/errors/ok")
      : await request(target, "GET", "/small");
  expect(res.status).toBe(200);
};

/** A POST whose body is streamed in chunks (no Content-Length: chunked transfer encoding). */
const chunkedPost = (
  target: StrataApp,
  path: string,
  chunks: ReadonlyArray<string>,
  contentType = "application/json",
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> =>
  new Promise((resolve, reject) => {
    const url = new URL(path, target.getUrl());
    const req = http.request(
      url,
      { method: "POST", headers: { "content-type": contentType }, agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    let i = 0;
    const writeNext = () => {
      if (i === chunks.length) {
        req.end();
        return;
      }
      const ok = req.write(chunks[i++]);
      if (ok) setImmediate(writeNext);
      else req.once("drain", writeNext);
    };
    writeNext();
  });

describe("HttpError classes thrown from a handler", () => {
  it.each([
    ["BadRequestError", 400, "Bad Request"],
    ["UnauthorizedError", 401, "Unauthorized"],
    ["ForbiddenError", 403, "Forbidden"],
    ["NotFoundError", 404, "Not Found"],
    ["ConflictError", 409, "Conflict"],
    ["InternalServerError", 500, "Internal Server Error"],
  ] as const)("%s answers %i with its default message", async (name, status, message) => {
    const res = await request(app, "GET", `/errors/default/${name}`);
    expect(res.status).toBe(status);
    expectJson(res.headers);
    expect(res.body).toEqual({ statusCode: status, message });
  });

  it.each([
    ["BadRequestError", 400],
    ["UnauthorizedError", 401],
    ["ForbiddenError", 403],
    ["NotFoundError", 404],
    ["ConflictError", 409],
    ["InternalServerError", 500],
  ] as const)("%s keeps a custom message", async (name, status) => {
    const res = await request(app, "GET", `/errors/custom/${name}`);
    expect(res.status).toBe(status);
    expectJson(res.headers);
    expect(res.body).toEqual({ statusCode: status, message: `Custom ${name}` });
  });

  it("includes `errors` when given", async () => {
    const res = await request(app, "GET", "/errors/details");
    expect(res.status).toBe(400);
    expectJson(res.headers);
    expect(res.body).toEqual({
      statusCode: 400,
      message: "Invalid input",
      errors: ["name is required", "age must be a number"],
    });
  });

  it("answers a base HttpError with its own status", async () => {
    const res = await request(app, "GET", "/errors/base");
    expect(res.status).toBe(418);
    expect(res.body).toEqual({ statusCode: 418, message: "I'm a teapot" });
  });

  it("answers an ...Exception as NestJS does: its class's status, the reason phrase as error", async () => {
    const res = await request(app, "GET", "/errors/alias");
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, message: "Already exists", error: "Conflict" });
  });

  it("the ...Exception classes are their Error classes for instanceof, both ways", () => {
    const pairs = [
      [BadRequestException, BadRequestError],
      [UnauthorizedException, UnauthorizedError],
      [ForbiddenException, ForbiddenError],
      [NotFoundException, NotFoundError],
      [ConflictException, ConflictError],
      [InternalServerErrorException, InternalServerError],
    ] as const;
    for (const [Exception, Strata] of pairs) {
      expect(new Exception()).toBeInstanceOf(Strata);
      expect(new Strata()).toBeInstanceOf(Exception);
      expect(new Exception()._tag).toBe(new Strata()._tag);
    }
  });
});

describe("unexpected failures leak nothing", () => {
  it.each([
    "/errors/plain-error",
    "/errors/plain-error-async",
    "/errors/string",
    "/errors/object",
    "/errors/die",
    "/errors/effect-fail-unknown",
  ])("%s answers a bare 500", async (path) => {
    const res = await request(app, "GET", path);
    expect(res.status).toBe(500);
    expectJson(res.headers);
    expect(res.text).toBe('{"statusCode":500,"message":"Internal Server Error"}');
    expect(res.body).toEqual(internalError);
    expect(res.text).not.toMatch(/secret|hunter2|stack|\bat /);
    await expectStillServing();
  });
});

describe("requests the router or the body reader refuses", () => {
  it("answers an unknown route with 404 in the standard shape", async () => {
    const res = await request(app, "GET", "/nowhere/at/all");
    expect(res.status).toBe(404);
    expectJson(res.headers);
    expect(res.body).toEqual({ statusCode: 404, message: "Not Found" });
  });

  it("answers a wrong method with 404 in the standard shape", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const res = await request(app, method, "/errors/ok");
      expect(res.status).toBe(404);
      expectJson(res.headers);
      expect(res.body).toEqual({ statusCode: 404, message: "Not Found" });
    }
    await expectStillServing();
  });

  it("answers malformed JSON with 400", async () => {
    const res = await request(app, "POST", "/errors/echo", {
      headers: { "content-type": "application/json" },
      body: '{"a": 1,',
    });
    expect(res.status).toBe(400);
    expectJson(res.headers);
    expect(res.body).toEqual({ statusCode: 400, message: "Invalid JSON body" });
    await expectStillServing();
  });

  it("answers malformed JSON read through @Req() with 400", async () => {
    const res = await request(app, "POST", "/errors/req-echo", {
      headers: { "content-type": "application/json" },
      body: "not json",
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: "Invalid JSON body" });
  });

  it("accepts a body of exactly the default limit", async () => {
    const body = "x".repeat(DEFAULT_BODY_LIMIT);
    const res = await request(app, "POST", "/errors/echo", {
      headers: { "content-type": "text/plain" },
      body,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ size: DEFAULT_BODY_LIMIT, chunked: false });
  });

  it("answers a body over the default 1 MB limit (Content-Length) with 413", async () => {
    expect(DEFAULT_BODY_LIMIT).toBe(1024 * 1024);
    const res = await request(app, "POST", "/errors/echo", {
      headers: { "content-type": "text/plain" },
      body: "x".repeat(DEFAULT_BODY_LIMIT + 1),
    });
    expect(res.status).toBe(413);
    expectJson(res.headers);
    expect(res.body).toEqual(payloadTooLarge);
    await expectStillServing();
  });

  it("answers a chunked body over the default limit with 413", async () => {
    const chunk = "y".repeat(64 * 1024);
    const chunks = Array.from({ length: 17 }, () => chunk); // 1 MB + 64 KB
    const res = await chunkedPost(app, "/errors/echo", chunks, "text/plain");
    expect(res.status).toBe(413);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual(payloadTooLarge);
    await expectStillServing();
  });

  it("accepts a chunked body under the limit", async () => {
    const res = await chunkedPost(app, "/errors/echo", ['{"a":', '"b"', "}"]);
    expect(res.status).toBe(201);
    expect(JSON.parse(res.text)).toEqual({ size: 9, chunked: true });
  });

  it("does not read a body the handler does not ask for", async () => {
    const res = await request(app, "POST", "/errors/no-body", {
      headers: { "content-type": "application/json" },
      body: "not json",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ read: false });
  });
});

describe("a custom bodyLimit", () => {
  it("accepts a body at the limit", async () => {
    const body = JSON.stringify({ s: "z".repeat(SMALL_LIMIT - 8) });
    expect(body.length).toBe(SMALL_LIMIT);
    const res = await request(small, "POST", "/small", {
      headers: { "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ body: JSON.parse(body) });
  });

  it("answers a body over the limit (Content-Length) with 413", async () => {
    const res = await request(small, "POST", "/small", {
      body: { s: "z".repeat(SMALL_LIMIT) },
    });
    expect(res.status).toBe(413);
    expectJson(res.headers);
    expect(res.body).toEqual(payloadTooLarge);
    await expectStillServing(small);
  });

  it("answers a chunked body over the limit with 413", async () => {
    const res = await chunkedPost(small, "/small", [
      '{"s":"',
      "z".repeat(40),
      "z".repeat(40),
      '"}',
    ]);
    expect(res.status).toBe(413);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["content-length"]).toBeDefined();
    expect(JSON.parse(res.text)).toEqual(payloadTooLarge);
    await expectStillServing(small);
  });

  it("keeps serving after several refusals in a row", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await chunkedPost(small, "/small", ["a".repeat(SMALL_LIMIT + 1)], "text/plain");
      expect(res.status).toBe(413);
    }
    const ok = await chunkedPost(small, "/small", ["hi"], "text/plain");
    expect(ok.status).toBe(201);
    expect(JSON.parse(ok.text)).toEqual({ body: "hi" });
  });
});
