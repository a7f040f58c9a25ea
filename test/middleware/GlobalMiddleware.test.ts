import http from "node:http";
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { expect, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import { describe, it } from "vitest";
import { Middleware } from "../../src/effect/index.js";
import {
  Controller,
  EffectMiddleware,
  ForbiddenError,
  Get,
  Injectable,
  type MiddlewareContext,
  type MiddlewareNext,
  Module,
  Scope,
  StrataApp,
  type StrataMiddleware,
  UnauthorizedError,
} from "../../src/index.js";
import { request, serveTest } from "../../src/testing/index.js";
import { capturingLogger, startedApps } from "../support/started.js";

/** A middleware adding `x-trace: <trace so far>,name` to the response and recording the order. */
const tracing = (name: string, seen: Array<string>) =>
  Middleware.make((app) =>
    Effect.gen(function* () {
      seen.push(`${name} in`);
      const response = yield* app;
      seen.push(`${name} out`);
      const trace = response.headers["x-trace"];
      return HttpServerResponse.setHeader(
        response,
        "x-trace",
        trace === undefined ? name : `${trace},${name}`,
      );
    }),
  );

@Controller()
class RoutesController {
  @Get("hello")
  hello() {
    return { hello: "world" };
  }
  @Get("admin/users")
  adminUsers() {
    return ["ada"];
  }
  @Get("administrator")
  administrator() {
    return "not admin";
  }
  @Get("boom")
  boom() {
    throw new Error("secret detail");
  }
}

@Injectable()
class ApiKeys {
  valid(key: string | undefined) {
    return key === "k1";
  }
}

@Injectable()
class ApiKeyMiddleware implements StrataMiddleware {
  constructor(private readonly keys: ApiKeys) {}
  use(context: MiddlewareContext) {
    if (!this.keys.valid(context.headers["x-api-key"])) throw new UnauthorizedError("Bad key");
    context.setHeader("x-key-checked", "yes");
  }
}

@Module({ controllers: [RoutesController], providers: [ApiKeys] })
class AppModule {}

describe("GlobalMiddlewareManager and app.use", () => {
  const start = startedApps();

  it("runs app-wide middleware in registration order, the first outermost", async () => {
    const seen: Array<string> = [];
    const app = await start(AppModule, { globalMiddleware: [tracing("option", seen)] }, (app) =>
      app.use(tracing("a", seen), tracing("b", seen)),
    );
    const response = await request(app, "GET", "/hello");
    expect(response.status).toBe(200);
    expect(seen).toEqual(["option in", "a in", "b in", "b out", "a out", "option out"]);
    expect(response.headers.get("x-trace")).toBe("b,a,option");
  });

  it("wraps unmatched routes and error responses too, already in the standard shape", async () => {
    const { logger } = capturingLogger();
    const app = await start(AppModule, { logger }, (app) => app.use(tracing("a", [])));
    const missing = await request(app, "GET", "/missing");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, message: "Not Found" });
    expect(missing.headers.get("x-trace")).toBe("a");
    const boom = await request(app, "GET", "/boom");
    expect(boom.status).toBe(500);
    expect(boom.body).toEqual({ statusCode: 500, message: "Internal Server Error" });
    expect(boom.headers.get("x-trace")).toBe("a");
  });

  it("limits middleware to a path prefix, on segment boundaries", async () => {
    const app = await start(AppModule, {}, (app) => app.use("/admin", tracing("admin", [])));
    expect((await request(app, "GET", "/admin/users")).headers.get("x-trace")).toBe("admin");
    expect((await request(app, "GET", "/admin")).headers.get("x-trace")).toBe("admin");
    expect((await request(app, "GET", "/administrator")).headers.get("x-trace")).toBeNull();
    expect((await request(app, "GET", "/hello")).headers.get("x-trace")).toBeNull();
  });

  it("applies prefixed middleware to every spelling of a path the router accepts", async () => {
    const app = await start(AppModule, {}, (app) => app.use("/admin", ApiKeyMiddleware));
    const url = new URL(app.getUrl());
    // Sent as written (fetch would normalise these): repeated slashes, case, percent-escapes,
    // and an absolute request target.
    const raw = (target: string) =>
      new Promise<number>((resolve, reject) => {
        const sent = http.request(
          { host: url.hostname, port: url.port, method: "GET", path: target },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        sent.on("error", reject);
        sent.end();
      });
    expect(await raw("/admin/users")).toBe(401);
    for (const target of [
      "//admin/users",
      "/ADMIN/users",
      "/Admin//users",
      "/%61dmin/users",
      `http://${url.host}//admin/users`,
    ]) {
      expect([target, await raw(target)]).toEqual([target, 401]);
    }
    expect(await raw("/hello")).toBe(200);
  });

  it("resolves middleware classes through dependency injection", async () => {
    const app = await start(AppModule, {}, (app) => app.use("admin/", ApiKeyMiddleware));
    const denied = await request(app, "GET", "/admin/users");
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ statusCode: 401, message: "Bad key" });
    const allowed = await request(app, "GET", "/admin/users", { headers: { "x-api-key": "k1" } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("x-key-checked")).toBe("yes");
    expect((await request(app, "GET", "/hello")).status).toBe(200);
  });

  it("gives a classic middleware the response status after next() and adds its headers", async () => {
    const statuses: Array<number | undefined> = [];
    const timing: StrataMiddleware = {
      async use(context: MiddlewareContext, next: MiddlewareNext) {
        statuses.push(context.status);
        await next();
        statuses.push(context.status);
        context.setHeader("x-status-seen", String(context.status));
      },
    };
    const app = await start(AppModule, {}, (app) => app.use(timing));
    const response = await request(app, "GET", "/missing?x=1");
    expect(response.status).toBe(404);
    expect(response.headers.get("x-status-seen")).toBe("404");
    expect(statuses).toEqual([undefined, 404]);
  });

  it("answers a classic middleware's HttpError as itself and anything else as a bare 500", async () => {
    const forbid: StrataMiddleware = {
      use: async (context) => {
        if (context.path === "/hello") throw new ForbiddenError("Closed");
        if (context.path === "/admin/users") throw new Error("internal detail");
      },
    };
    const { logger, lines } = capturingLogger();
    const app = await start(AppModule, { logger }, (app) => app.use(forbid));
    expect((await request(app, "GET", "/hello")).body).toEqual({
      statusCode: 403,
      message: "Closed",
    });
    const failed = await request(app, "GET", "/admin/users");
    expect(failed.status).toBe(500);
    expect(failed.text).not.toContain("internal detail");
    expect(lines.some((line) => line.text.includes("internal detail"))).toBe(true);
    expect((await request(app, "GET", "/administrator")).status).toBe(200);
  });

  it("lets outer middleware see the failures of inner ones as responses", async () => {
    const app = await start(AppModule, {}, (app) =>
      app.use(tracing("outer", []), {
        use: () => {
          throw new UnauthorizedError();
        },
      }),
    );
    const response = await request(app, "GET", "/hello");
    expect(response.status).toBe(401);
    expect(response.headers.get("x-trace")).toBe("outer");
  });

  it("builds EffectMiddleware instances and classes", async () => {
    class PoweredBy extends EffectMiddleware {
      build() {
        return Effect.succeed(
          Middleware.make((app) =>
            Effect.map(app, HttpServerResponse.setHeader("x-powered-by", "strata")),
          ),
        );
      }
    }
    const app = await start(AppModule, {}, (app) => app.use(PoweredBy));
    expect((await request(app, "GET", "/hello")).headers.get("x-powered-by")).toBe("strata");
  });

  it("refuses middleware once the app listens, and request-scoped middleware at startup", async () => {
    const app = await start(AppModule);
    expect(() => app.use(tracing("late", []))).toThrow(/before the app starts listening/);

    @Injectable({ scope: Scope.REQUEST })
    class PerRequest implements StrataMiddleware {
      use() {}
    }
    @Module({ controllers: [RoutesController], providers: [ApiKeys, PerRequest] })
    class ScopedModule {}
    const scoped = new StrataApp(ScopedModule).use(PerRequest);
    await expect(scoped.listen(0)).rejects.toThrow(/PerRequest .* cannot be request-scoped/);
    await scoped.close();
  });

  it("refuses values that are not middleware", async () => {
    const app = new StrataApp(AppModule).use({ nope: true } as unknown as StrataMiddleware);
    await expect(app.listen(0)).rejects.toThrow(/is not a middleware/);
    await app.close();
  });
});

describe("Middleware (Effect face)", () => {
  const seen: Array<string> = [];
  const routes = HttpLayerRouter.add("GET", "/ok", HttpServerResponse.text("ok"));
  layer(
    serveTest(routes, {
      middleware: Middleware.compose(
        tracing("first", seen),
        Middleware.forPrefix("/ok", tracing("second", seen)),
      ),
    }),
  )("compose and forPrefix", (it) => {
    it.effect("composes in order and applies prefixed middleware under its prefix only", () =>
      Effect.gen(function* () {
        const ok = yield* HttpClient.get("/ok");
        expect(ok.headers["x-trace"]).toBe("second,first");
        const missing = yield* HttpClient.get("/other");
        expect(missing.status).toBe(404);
        expect(missing.headers["x-trace"]).toBe("first");
      }),
    );
  });
});

describe("Middleware.compose with infallible middleware", () => {
  const seenHeader = Middleware.makeInfallible((app) =>
    Effect.map(app, HttpServerResponse.setHeader("x-seen", "yes")),
  );
  const refusing = Middleware.make(() => Effect.fail(new UnauthorizedError("Who are you?")));
  const answer = (app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, unknown>) =>
    Effect.runPromise(app as Effect.Effect<HttpServerResponse.HttpServerResponse>);

  it("marks what makeInfallible makes, and what compose makes", () => {
    expect(Middleware.isInfallible(seenHeader)).toBe(true);
    expect(Middleware.isInfallible(refusing)).toBe(false);
    expect(Middleware.isInfallible(Middleware.compose(refusing))).toBe(true);
    expect(Middleware.isInfallible(Middleware.forPrefix("/a", seenHeader))).toBe(true);
    expect(Middleware.isInfallible(Middleware.forPrefix("/a", refusing))).toBe(false);
  });

  it("still answers the app's failures and other middleware's before infallible middleware sees them", async () => {
    const failingApp = Effect.fail(new ForbiddenError("Not yours"));
    const forbidden = await answer(Middleware.compose(seenHeader)(failingApp));
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers["x-seen"]).toBe("yes");
    const unauthorized = await answer(
      Middleware.compose(seenHeader, refusing)(Effect.succeed(HttpServerResponse.text("ok"))),
    );
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers["x-seen"]).toBe("yes");
  });
});

describe("Middleware.withRequest", () => {
  it("hands over the request being served", async () => {
    const request = HttpServerRequest.fromWeb(new Request("http://localhost/users/7?x=1"));
    const url = await Effect.runPromise(
      Effect.provideService(
        Middleware.withRequest((served) => Effect.succeed(served.url)),
        HttpServerRequest.HttpServerRequest,
        request,
      ),
    );
    expect(url).toBe("/users/7?x=1");
  });
});

describe("Middleware.decorating", () => {
  /** Appends `name` to the response's `x-trace`. */
  const trace =
    (name: string) =>
    (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
      const before = response.headers["x-trace"];
      return HttpServerResponse.setHeader(
        response,
        "x-trace",
        before === undefined ? name : `${before},${name}`,
      );
    };
  const served = (app: Middleware.App, url = "http://localhost/a/b") =>
    Effect.runPromise(
      Effect.provideService(
        app,
        HttpServerRequest.HttpServerRequest,
        HttpServerRequest.fromWeb(new Request(url)),
      ) as Effect.Effect<HttpServerResponse.HttpServerResponse>,
    );
  let runs = 0;
  const app = Effect.sync(() => {
    runs += 1;
    return HttpServerResponse.text("ok");
  });
  const outer = Middleware.decorating(() => trace("outer"));
  const middle = Middleware.decorating(() => Effect.succeed(trace("middle")));
  const inner = Middleware.decorating(() => trace("inner"));
  const answering = Middleware.decorating(() =>
    Effect.succeed({ answer: HttpServerResponse.text("no", { status: 429 }) }),
  );
  const untouched = Middleware.decorating(() => undefined);

  it("changes the response as nesting would, the innermost change first, in one step when composed", async () => {
    const nested = await served(outer(middle(inner(untouched(app)))));
    const composed = await served(Middleware.compose(outer, middle, inner, untouched)(app));
    expect(nested.headers["x-trace"]).toBe("inner,middle,outer");
    expect(composed.headers["x-trace"]).toBe("inner,middle,outer");
    expect(composed.status).toBe(200);
  });

  it("answers without running the app, the outer middleware still changing the answer", async () => {
    runs = 0;
    const response = await served(Middleware.compose(outer, answering, inner)(app));
    expect(response.status).toBe(429);
    expect(response.headers["x-trace"]).toBe("outer");
    expect(runs).toBe(0);
    await served(Middleware.compose(outer, inner)(app));
    expect(runs).toBe(1);
  });

  it("answers a decision or change that fails as nesting would: 500, changed by the ones outside", async () => {
    const broken = [
      Middleware.decorating(() => {
        throw new Error("decide bug");
      }),
      Middleware.decorating(() => Effect.die(new Error("store bug"))),
      Middleware.decorating(() => () => {
        throw new Error("change bug");
      }),
    ];
    for (const middleware of broken) {
      const response = await served(Middleware.compose(outer, middleware, inner)(app));
      expect(response.status).toBe(500);
      expect(response.headers["x-trace"]).toBe("outer");
      const body = response.body as { readonly body?: unknown };
      expect(JSON.parse(String(body.body))).toEqual({
        statusCode: 500,
        message: "Internal Server Error",
      });
    }
  });

  it("stays one step under forPrefix, and leaves other paths alone", async () => {
    const scoped = Middleware.forPrefix("/a", Middleware.compose(outer, inner));
    const prefixed = Middleware.forPrefix("/a", inner);
    expect(Middleware.isInfallible(prefixed)).toBe(true);
    const composed = Middleware.compose(outer, prefixed);
    expect((await served(composed(app))).headers["x-trace"]).toBe("inner,outer");
    expect((await served(composed(app), "http://localhost/other")).headers["x-trace"]).toBe(
      "outer",
    );
    expect((await served(scoped(app))).headers["x-trace"]).toBe("inner,outer");
    expect((await served(scoped(app), "http://localhost/b")).headers["x-trace"]).toBeUndefined();
  });
});
