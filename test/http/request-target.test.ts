import { connect } from "node:net";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServer from "@effect/platform/HttpServer";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { Middleware, StrataServer } from "../../src/effect/index.js";
import { canonicalTarget } from "../../src/http/RequestTarget.js";
import {
  Controller,
  Get,
  type MiddlewareContext,
  Module,
  Query,
  StrataApp,
  UnauthorizedError,
} from "../../src/index.js";
import { startedApps } from "../support/started.js";

/** A raw HTTP/1.1 exchange: the target is sent exactly as written (no client normalises it). */
const rawGet = (base: string, target: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(base);
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Array<Buffer> = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head, ...rest] = text.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), body: rest.join("\r\n\r\n") });
    });
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(
      `GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n${lines.join("")}\r\n`,
    );
  });

/** Every spelling of `/admin/...` an attacker might try (SECURITY.md check 35). */
const spellings = (host: string) => [
  "/admin",
  "/admin/users",
  "/admin;",
  "/admin;x=1",
  "/admin/users;x=1",
  "/admin%3B",
  "/admin%3b/users",
  "/admin#frag",
  "/admin?#frag",
  "/admin/users#",
  "http://x?/admin/users",
  "http://x/admin/users",
  `http://${host}//admin/users`,
  "http://user@x/admin/users",
  "http://x#/admin/users",
  "http://x;/admin/users",
  "https://x:1/admin/users",
  "//admin/users",
  "/x/../admin/users",
  "/./admin/users",
  "/admin/./users",
  "/%2e/admin/users",
  "/x/%2e%2e/admin/users",
  "/x/%2E%2E/admin/users",
  "/x/.%2e/admin/users",
  "/%61dmin/users",
  "/%41DMIN/users",
  "/ADMIN/users",
  "/Admin//users",
  "/admin/",
  "/admin/users/",
  "/admin\\users",
  "\\admin/users",
  "/%5Cadmin/users",
  "/admin%2Fusers",
  "/admin%2fusers",
  "/%2Fadmin/users",
  "/admin%00",
  "/admin%zz",
  "/admin%C3",
  "*",
];

const SECRET = "admin-secret";

/** The guard: `x-key: k1` or 401. */
const guard = Middleware.make((app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    request.headers["x-key"] === "k1" ? app : Effect.fail(new UnauthorizedError("Bad key")),
  ),
);

@Controller("admin")
class AdminController {
  @Get()
  index() {
    return SECRET;
  }
  @Get("users")
  users() {
    return SECRET;
  }
}

@Controller()
class OpenController {
  /** A parametric route at the top: it catches what escapes `/admin` as one segment. */
  @Get(":page")
  page() {
    return "page";
  }
  @Get("q")
  query(@Query() query: Record<string, unknown>) {
    return query;
  }
}

@Module({ controllers: [AdminController, OpenController] })
class AppModule {}

const effectRoutes = Layer.mergeAll(
  HttpLayerRouter.add("GET", "/admin", HttpServerResponse.text(SECRET)),
  HttpLayerRouter.add("GET", "/admin/users", HttpServerResponse.text(SECRET)),
  HttpLayerRouter.add("GET", "/:page", HttpServerResponse.text("page")),
  HttpLayerRouter.add(
    "GET",
    "/q",
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest;
      const parsed = yield* HttpServerRequest.ParsedSearchParams;
      const url = new URL(request.url, "http://x");
      return yield* HttpServerResponse.json({
        parsed,
        search: url.search,
        entries: [...url.searchParams],
      });
    }),
  ),
);

/** Serves `routes` with the guard on `/admin`, on the fast path or the stock dispatch. */
const served = <A, E, R>(routes: Layer.Layer<A, E, R>, tracing: boolean) =>
  Effect.gen(function* () {
    const app = StrataServer.serve(routes, {
      middleware: Middleware.forPrefix("/admin", guard),
      tracing,
    }).pipe(Layer.provideMerge(StrataServer.layerNode({ port: 0, host: "127.0.0.1" })));
    const context = yield* Layer.build(app as Layer.Layer<HttpServer.HttpServer, unknown>);
    const address = Context.get(context, HttpServer.HttpServer).address;
    return `http://127.0.0.1:${address._tag === "TcpAddress" ? address.port : 0}`;
  });

/**
 * For each spelling: the guarded route runs with the guard (401 without the key), or the answer
 * is 400/404, or another route runs; never the guarded route without its guard.
 */
const expectGuarded = async (base: string) => {
  const host = new URL(base).host;
  const outcomes: Array<[string, number, string]> = [];
  for (const target of spellings(host)) {
    const answer = await rawGet(base, target);
    outcomes.push([target, answer.status, answer.body]);
    expect([target, answer.body.includes(SECRET)]).toEqual([target, false]);
    expect([target, [200, 400, 401, 404].includes(answer.status)]).toEqual([target, true]);
    // node's parser refuses some targets itself (400, no body); Strata refuses the rest.
    if (answer.status === 400 && answer.body !== "") {
      expect(JSON.parse(answer.body)).toEqual({
        statusCode: 400,
        message: "Malformed request target",
      });
    }
  }
  // With the key, the canonical spellings reach the route through the guard.
  for (const target of ["/admin/users", "//admin/users", "/%61dmin/users", "/ADMIN/users/"]) {
    const answer = await rawGet(base, target, { "x-key": "k1" });
    expect([target, answer.status, answer.body.includes(SECRET)]).toEqual([target, 200, true]);
  }
  return outcomes;
};

describe("check 35: one meaning per path", () => {
  it("canonicalTarget: one canonical form, or refused", () => {
    const table: ReadonlyArray<[string, string | undefined]> = [
      ["/admin/users", "/admin/users"],
      ["/admin;x=1", undefined],
      ["/admin#frag", undefined],
      ["http://x?/admin/users", "/?/admin/users"],
      ["http://x/admin/users?a=1", "/admin/users?a=1"],
      ["http://x#/admin", undefined],
      ["http:/admin", undefined],
      ["//admin//users", "/admin/users"],
      ["/%61dmin", "/admin"],
      ["/caf%C3%A9", "/café"],
      ["/admin%2fusers", "/admin%2Fusers"],
      ["/%2541", "/%2541"],
      ["/a/../b", undefined],
      ["/%2e%2e/b", undefined],
      ["/.well-known/x", "/.well-known/x"],
      ["/a\\b", undefined],
      ["/%5C", undefined],
      ["/%00", undefined],
      ["/%C3", undefined],
      ["/%zz", undefined],
      ["*", undefined],
      ["/q?next=https://x.example//a&b=//c", "/q?next=https://x.example//a&b=//c"],
      ["//q?a=%2F%2F#x", "/q?a=%2F%2F#x"],
    ];
    for (const [raw, canonical] of table)
      expect([raw, canonicalTarget(raw)]).toEqual([raw, canonical]);
  });

  const start = startedApps();

  it("classic face, app.use: every spelling runs the guard or is refused", async () => {
    const app = await start(AppModule, {}, (app) =>
      app.use("/admin", {
        use(context: MiddlewareContext) {
          if (context.headers["x-key"] !== "k1") throw new UnauthorizedError("Bad key");
        },
      }),
    );
    const outcomes = await expectGuarded(app.getUrl());
    // The cut spellings are refused before anything runs.
    const refused = outcomes.filter(([, status]) => status === 400).map(([target]) => target);
    expect(refused).toEqual(
      expect.arrayContaining(["/admin;", "/admin;x=1", "/admin#frag", "/x/../admin/users", "*"]),
    );
  });

  for (const [name, tracing] of [
    ["fast path", false],
    ["stock dispatch", true],
  ] as const) {
    it.scopedLive(`classic controllers through StrataServer.serve, ${name}`, () =>
      Effect.gen(function* () {
        const base = yield* served(StrataApp.layer(AppModule), tracing);
        yield* Effect.promise(() => expectGuarded(base));
      }),
    );
    it.scopedLive(`Effect routes, ${name}`, () =>
      Effect.gen(function* () {
        const base = yield* served(effectRoutes, tracing);
        yield* Effect.promise(() => expectGuarded(base));
      }),
    );
    // The canonical form of `/caf%C3%A9` is `/café`: checked once, by the server, not refused
    // when the route's own check reads it again (it holds a character a raw target may not).
    it.scopedLive(`an escaped non-ASCII path reaches its route, ${name}`, () =>
      Effect.gen(function* () {
        for (const routes of [StrataApp.layer(AppModule), effectRoutes]) {
          const base = yield* served(routes, tracing);
          for (const target of ["/caf%C3%A9", "/caf%c3%a9", "/%E2%9C%93"]) {
            const answer = yield* Effect.promise(() => rawGet(base, target));
            expect([target, answer.status, answer.body]).toEqual([target, 200, "page"]);
          }
          const rewritten = yield* Effect.promise(() => rawGet(base, "/caf\u00e9"));
          expect(rewritten.status).toBe(400);
        }
      }),
    );
  }
});

describe("query strings reach routes byte for byte", () => {
  const query =
    "next=https://x.example//a&b=//c&e=%2F%2F&p=a+b&s=a%20b&r=1&r=2&empty=&u=%C3%A9t%C3%A9";
  const expected = {
    next: "https://x.example//a",
    b: "//c",
    e: "//",
    p: "a b",
    s: "a b",
    r: ["1", "2"],
    empty: "",
    u: "été",
  };
  const start = startedApps();

  it("classic @Query(), fast path", async () => {
    const app = await start(AppModule);
    const answer = await rawGet(app.getUrl(), `//q?${query}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual(expected);
  });

  for (const [name, tracing] of [
    ["fast path", false],
    ["stock dispatch", true],
  ] as const) {
    it.scopedLive(`classic @Query() through serve, ${name}`, () =>
      Effect.gen(function* () {
        const base = yield* served(StrataApp.layer(AppModule), tracing);
        const answer = yield* Effect.promise(() => rawGet(base, `/q?${query}`));
        expect(JSON.parse(answer.body)).toEqual(expected);
      }),
    );
    it.scopedLive(`Effect ParsedSearchParams and request.url, ${name}`, () =>
      Effect.gen(function* () {
        const base = yield* served(effectRoutes, tracing);
        const answer = yield* Effect.promise(() => rawGet(base, `//q?${query}`));
        const body = JSON.parse(answer.body);
        expect(body.parsed).toEqual(expected);
        expect(body.search).toBe(`?${query}`);
        expect(body.entries).toContainEqual(["next", "https://x.example//a"]);
      }),
    );
  }
});
