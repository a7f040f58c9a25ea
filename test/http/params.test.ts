import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import {
  BadRequestError,
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  Module,
  Param,
  ParseIntPipe,
  PipeTransform,
  Post,
  Query,
  Req,
  type RequestContext,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

/** Upper-cases a string; asynchronous on purpose. */
class UpperPipe extends PipeTransform<unknown, string> {
  async transform(value: unknown): Promise<string> {
    return String(value).toUpperCase();
  }
}

/** Joins an array (repeated query key) with `|`, as an Effect. */
class JoinPipe extends PipeTransform<unknown, string> {
  transform(value: unknown) {
    return Effect.succeed(Array.isArray(value) ? value.join("|") : String(value));
  }
}

/** Fails unless the value is `ok`. */
class OnlyOkPipe extends PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (value !== "ok") throw new BadRequestError("Not ok", [`got ${String(value)}`]);
    return value;
  }
}

@Controller("p")
class ParamsController {
  @Post("body")
  body(@Body() body: unknown) {
    return { body, type: typeof body };
  }

  @Get("body")
  getBody(@Body() body: unknown) {
    return { type: typeof body };
  }

  @Delete("body")
  deleteBody(@Body() body: unknown) {
    return { body };
  }

  @Post("text")
  text(@Body() body: unknown) {
    return body;
  }

  @Get("int-class/:id")
  intClass(@Param("id", ParseIntPipe) id: number) {
    return { id, type: typeof id };
  }

  @Get("int-instance/:id")
  intInstance(@Param("id", new ParseIntPipe()) id: number) {
    return { id, type: typeof id };
  }

  @Get("upper/:name")
  upper(@Param("name", UpperPipe) name: string) {
    return { name };
  }

  @Get("query")
  query(@Query("q") q: unknown, @Query("missing") missing: unknown) {
    return { q: q ?? null, missingIsUndefined: missing === undefined };
  }

  @Get("query-all")
  queryAll(@Query() all: Record<string, unknown>) {
    return all;
  }

  @Get("query-int")
  queryInt(@Query("page", ParseIntPipe) page: number) {
    return { page, type: typeof page };
  }

  @Get("query-join")
  queryJoin(@Query("tag", new JoinPipe()) tags: string) {
    return { tags };
  }

  @Get("query-ok")
  queryOk(@Query("v", OnlyOkPipe) v: string) {
    return { v };
  }

  @Get("headers")
  headers(
    @Headers("X-Custom-Thing") custom: string | undefined,
    @Headers("x-other") other: string | undefined,
    @Headers() all: Record<string, string>,
  ) {
    return { custom, other: other ?? null, allCustom: all["x-custom-thing"], host: all.host };
  }

  @Get("req/:id")
  reqGet(@Req() req: RequestContext) {
    return {
      method: req.method,
      url: req.url,
      header: req.headers["x-trace"],
      params: req.params,
      query: req.query,
      body: req.body ?? null,
    };
  }

  @Post("req/:id")
  reqPost(@Req() req: RequestContext, @Body() body: unknown) {
    return {
      method: req.method,
      url: req.url,
      contentType: req.headers["content-type"],
      params: req.params,
      query: req.query,
      body: req.body,
      same: req.body === body,
    };
  }

  @Post("mixed/:id")
  mixed(
    @Query("n", ParseIntPipe) n: number,
    @Body() body: { readonly value: number },
    @Param("id", ParseIntPipe) id: number,
    @Headers("x-k") k: string,
  ) {
    return { sum: n + body.value + id, k };
  }
}

@Module({ controllers: [ParamsController] })
class AppModule {}

const app = listeningApp(AppModule);

describe("@Body()", () => {
  it("decodes a JSON body", async () => {
    const res = await request(app, "POST", "/p/body", { body: { a: 1, b: ["x"] } });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({ body: { a: 1, b: ["x"] }, type: "object" });
  });

  it("decodes JSON with a charset parameter", async () => {
    const res = await request(app, "POST", "/p/body", {
      headers: { "content-type": "application/json; charset=utf-8" },
      body: '{"é":"ü"}',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ body: { é: "ü" }, type: "object" });
  });

  it("decodes an urlencoded form", async () => {
    const res = await request(app, "POST", "/p/body", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "name=Ada+Lovelace&lang=en&x=%26",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      body: { name: "Ada Lovelace", lang: "en", x: "&" },
      type: "object",
    });
  });

  it("decodes a text body as a string", async () => {
    const res = await request(app, "POST", "/p/text", {
      headers: { "content-type": "text/plain" },
      body: "just some text",
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.text).toBe("just some text");
  });

  it("is undefined with no body", async () => {
    const res = await request(app, "POST", "/p/body");
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ type: "undefined" });
  });
});

describe("@Body() on bodyless methods", () => {
  it("is undefined for a GET", async () => {
    const res = await request(app, "GET", "/p/body");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: "undefined" });
  });

  it("is read for a DELETE that has one", async () => {
    const res = await request(app, "DELETE", "/p/body", { body: { ids: [1, 2] } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({ body: { ids: [1, 2] } });
  });
});

describe("@Param()", () => {
  it("parses with ParseIntPipe given as a class", async () => {
    const res = await request(app, "GET", "/p/int-class/123");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 123, type: "number" });
  });

  it("parses with ParseIntPipe given as an instance", async () => {
    const res = await request(app, "GET", "/p/int-instance/-7");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: -7, type: "number" });
  });

  it.each(["abc", "1.5", "12abc", "99999999999999999999"])(
    "answers 400 when ParseIntPipe gets %s",
    async (value) => {
      for (const prefix of ["int-class", "int-instance"]) {
        const res = await request(app, "GET", `/p/${prefix}/${value}`);
        expect(res.status).toBe(400);
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        expect(res.body).toEqual({
          statusCode: 400,
          message: "Validation failed (numeric string is expected)",
        });
      }
    },
  );

  it("runs an asynchronous pipe", async () => {
    const res = await request(app, "GET", "/p/upper/ada");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: "ADA" });
  });
});

describe("@Query()", () => {
  it("reads one query parameter by name", async () => {
    const res = await request(app, "GET", "/p/query?q=hello%20world&other=1");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ q: "hello world", missingIsUndefined: true });
  });

  it("reads all query parameters, repeated keys as arrays", async () => {
    const res = await request(app, "GET", "/p/query-all?a=1&b=x&b=y&c=");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ a: "1", b: ["x", "y"], c: "" });
  });

  it("is an empty object with no query string", async () => {
    const res = await request(app, "GET", "/p/query-all");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
  });

  it("gives a repeated named key as an array", async () => {
    const res = await request(app, "GET", "/p/query?q=1&q=2");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ q: ["1", "2"], missingIsUndefined: true });
  });

  it("transforms a query parameter with a pipe", async () => {
    const ok = await request(app, "GET", "/p/query-int?page=3");
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ page: 3, type: "number" });

    const bad = await request(app, "GET", "/p/query-int?page=three");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      statusCode: 400,
      message: "Validation failed (numeric string is expected)",
    });

    const missing = await request(app, "GET", "/p/query-int");
    expect(missing.status).toBe(400);
  });

  it("passes repeated keys to a pipe returning an Effect", async () => {
    const res = await request(app, "GET", "/p/query-join?tag=a&tag=b&tag=c");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ tags: "a|b|c" });
  });

  it("answers a pipe's HttpError with its status and errors", async () => {
    const ok = await request(app, "GET", "/p/query-ok?v=ok");
    expect(ok.body).toEqual({ v: "ok" });
    const bad = await request(app, "GET", "/p/query-ok?v=nope");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ statusCode: 400, message: "Not ok", errors: ["got nope"] });
  });
});

describe("@Headers()", () => {
  it("reads one header case-insensitively, and all headers", async () => {
    const res = await request(app, "GET", "/p/headers", {
      headers: { "x-CUSTOM-thing": "v1" },
    });
    expect(res.status).toBe(200);
    const body = res.body as Record<string, unknown>;
    expect(body.custom).toBe("v1");
    expect(body.other).toBeNull();
    expect(body.allCustom).toBe("v1");
    expect(body.host).toMatch(/^(127\.0\.0\.1|\[::1\]):\d+$/);
  });
});

describe("@Req()", () => {
  it("gives the RequestContext of a GET", async () => {
    const res = await request(app, "GET", "/p/req/9?x=1&x=2&y=z", {
      headers: { "X-Trace": "abc" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      method: "GET",
      url: "/p/req/9?x=1&x=2&y=z",
      header: "abc",
      params: { id: "9" },
      query: { x: ["1", "2"], y: "z" },
      body: null,
    });
  });

  it("gives the RequestContext of a POST with its decoded body", async () => {
    const res = await request(app, "POST", "/p/req/10?flag=on", { body: { hello: "there" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      method: "POST",
      url: "/p/req/10?flag=on",
      contentType: "application/json",
      params: { id: "10" },
      query: { flag: "on" },
      body: { hello: "there" },
      same: true,
    });
  });
});

describe("several parameter decorators together", () => {
  it("passes each argument at its index", async () => {
    const res = await request(app, "POST", "/p/mixed/5?n=10", {
      headers: { "X-K": "kay" },
      body: { value: 100 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ sum: 115, k: "kay" });
  });
});
