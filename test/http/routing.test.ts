import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import {
  Controller,
  Delete,
  Get,
  Module,
  NotFoundError,
  Param,
  Patch,
  Post,
  Put,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

@Controller("users")
class UsersController {
  @Get()
  list() {
    return [{ id: 1 }];
  }

  @Get(":id")
  one(@Param("id") id: string) {
    return { id };
  }

  @Get({ path: ":userId/posts/:postId" })
  post(@Param("userId") userId: string, @Param("postId") postId: string) {
    return { userId, postId };
  }

  @Post()
  create() {
    return { created: true };
  }

  @Put(":id")
  replace(@Param("id") id: string) {
    return { replaced: id };
  }

  @Delete(":id")
  remove(@Param("id") id: string) {
    return { deleted: id };
  }

  @Patch(":id")
  update(@Param("id") id: string) {
    return { patched: id };
  }
}

@Controller("/items")
class ItemsController {
  @Get("/")
  list() {
    return "items";
  }

  @Post("new")
  create() {
    return { made: "item" };
  }

  @Put({ path: "all" })
  replaceAll() {
    return { replaced: "all" };
  }

  @Delete({})
  clear() {
    return { cleared: true };
  }

  @Patch({ path: "/bulk/" })
  bulk() {
    return { bulk: true };
  }
}

@Controller({ path: "opts" })
class OptionsController {
  @Get()
  root() {
    return { from: "options" };
  }

  @Put()
  put() {
    return { put: "root" };
  }

  @Delete()
  del() {
    return { del: "root" };
  }

  @Patch()
  patch() {
    return { patch: "root" };
  }

  @Post({ path: "x" })
  post() {
    return { post: "x" };
  }

  @Get({ path: "x" })
  getX() {
    return { get: "x" };
  }
}

@Controller()
class ResultsController {
  @Get("plain")
  plain() {
    return { kind: "plain" };
  }

  @Get("promise")
  async promise() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { kind: "promise" };
  }

  @Get("effect")
  effect() {
    return Effect.succeed({ kind: "effect" });
  }

  @Get("effect-gen")
  effectGen() {
    return Effect.gen(function* () {
      const n = yield* Effect.succeed(20);
      return { n: n + 1 };
    });
  }

  @Get("effect-fail")
  effectFail() {
    return Effect.fail(new NotFoundError());
  }

  @Get("effect-fail-message")
  effectFailMessage() {
    return Effect.fail(new NotFoundError("No such widget"));
  }

  @Get("promise-reject")
  async promiseReject(): Promise<never> {
    throw new NotFoundError("Gone away");
  }

  @Get("string")
  text() {
    return "hello";
  }

  @Get("undefined")
  nothing() {
    return undefined;
  }

  @Post("undefined")
  nothingPost(): void {}

  @Get("null")
  nul() {
    return null;
  }

  @Get("number")
  num() {
    return 42;
  }
}

@Module({
  controllers: [UsersController, ItemsController, OptionsController, ResultsController],
})
class AppModule {}

const app = listeningApp(AppModule);

const expectJson = (headers: Headers) =>
  expect(headers.get("content-type")).toMatch(/^application\/json/);

describe("@Controller prefixes and route decorators", () => {
  it("routes @Get() with no path to the `users` prefix", async () => {
    const res = await request(app, "GET", "/users");
    expect(res.status).toBe(200);
    expectJson(res.headers);
    expect(res.body).toEqual([{ id: 1 }]);
  });

  it("routes `:name` params", async () => {
    const res = await request(app, "GET", "/users/42");
    expect(res.status).toBe(200);
    expectJson(res.headers);
    expect(res.body).toEqual({ id: "42" });
  });

  it("routes @Get({ path }) with two params", async () => {
    const res = await request(app, "GET", "/users/7/posts/abc");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: "7", postId: "abc" });
  });

  it("decodes percent-encoded params", async () => {
    const res = await request(app, "GET", "/users/a%20b");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: "a b" });
  });

  it("answers POST with 201 by default", async () => {
    const res = await request(app, "POST", "/users");
    expect(res.status).toBe(201);
    expectJson(res.headers);
    expect(res.body).toEqual({ created: true });
  });

  it.each([
    ["PUT", { replaced: "5" }],
    ["DELETE", { deleted: "5" }],
    ["PATCH", { patched: "5" }],
  ] as const)("routes %s with a string path and status 200", async (method, body) => {
    const res = await request(app, method, "/users/5");
    expect(res.status).toBe(200);
    expectJson(res.headers);
    expect(res.body).toEqual(body);
  });

  it("treats the `/items` prefix like `items`, with `/`-prefixed method paths", async () => {
    const list = await request(app, "GET", "/items");
    expect(list.status).toBe(200);
    expect(list.text).toBe("items");

    const made = await request(app, "POST", "/items/new");
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ made: "item" });

    const replaced = await request(app, "PUT", "/items/all");
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ replaced: "all" });

    const cleared = await request(app, "DELETE", "/items");
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ cleared: true });

    const bulk = await request(app, "PATCH", "/items/bulk");
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual({ bulk: true });
  });

  it("accepts @Controller({ path }) and route decorators with no path or { path }", async () => {
    expect((await request(app, "GET", "/opts")).body).toEqual({ from: "options" });
    expect((await request(app, "PUT", "/opts")).body).toEqual({ put: "root" });
    expect((await request(app, "DELETE", "/opts")).body).toEqual({ del: "root" });
    expect((await request(app, "PATCH", "/opts")).body).toEqual({ patch: "root" });
    const post = await request(app, "POST", "/opts/x");
    expect(post.status).toBe(201);
    expect(post.body).toEqual({ post: "x" });
    const get = await request(app, "GET", "/opts/x");
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ get: "x" });
  });

  it("ignores a trailing slash", async () => {
    const res = await request(app, "GET", "/users/");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: 1 }]);
  });

  it("lists the compiled routes", () => {
    const routes = app.routes.map((r) => `${r.method} ${r.path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        "GET /users",
        "GET /users/:id",
        "GET /users/:userId/posts/:postId",
        "POST /users",
        "GET /items",
        "POST /items/new",
        "PATCH /items/bulk",
        "GET /opts",
        "POST /opts/x",
        "GET /plain",
      ]),
    );
  });
});

describe("handler results", () => {
  it("sends a plain value as JSON", async () => {
    const res = await request(app, "GET", "/plain");
    expect(res.status).toBe(200);
    expectJson(res.headers);
    expect(res.body).toEqual({ kind: "plain" });
  });

  it("awaits a Promise", async () => {
    const res = await request(app, "GET", "/promise");
    expect(res.status).toBe(200);
    expectJson(res.headers);
    expect(res.body).toEqual({ kind: "promise" });
  });

  it("runs an Effect.succeed", async () => {
    const res = await request(app, "GET", "/effect");
    expect(res.status).toBe(200);
    expectJson(res.headers);
    expect(res.body).toEqual({ kind: "effect" });
  });

  it("runs an Effect.gen", async () => {
    const res = await request(app, "GET", "/effect-gen");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ n: 21 });
  });

  it("answers Effect.fail(new NotFoundError()) with 404", async () => {
    const res = await request(app, "GET", "/effect-fail");
    expect(res.status).toBe(404);
    expectJson(res.headers);
    expect(res.body).toEqual({ statusCode: 404, message: "Not Found" });
  });

  it("keeps the message of an Effect failure", async () => {
    const res = await request(app, "GET", "/effect-fail-message");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: "No such widget" });
  });

  it("answers a rejected Promise with its HttpError", async () => {
    const res = await request(app, "GET", "/promise-reject");
    expect(res.status).toBe(404);
    expectJson(res.headers);
    expect(res.body).toEqual({ statusCode: 404, message: "Gone away" });
  });

  it("sends a string as text/plain", async () => {
    const res = await request(app, "GET", "/string");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.text).toBe("hello");
  });

  it("sends undefined as an empty body", async () => {
    const res = await request(app, "GET", "/undefined");
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(res.headers.get("content-type")).toBeNull();
  });

  it("sends undefined from a POST as an empty 201", async () => {
    const res = await request(app, "POST", "/undefined");
    expect(res.status).toBe(201);
    expect(res.text).toBe("");
  });

  it("sends null as an empty body", async () => {
    const res = await request(app, "GET", "/null");
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
  });

  it("sends a number as JSON", async () => {
    const res = await request(app, "GET", "/number");
    expect(res.status).toBe(200);
    expectJson(res.headers);
    expect(res.text).toBe("42");
  });
});
