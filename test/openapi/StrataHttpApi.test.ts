// StrataHttpApi.group / addHttpApi answer exactly as HttpApiBuilder.group / HttpLayerRouter.addHttpApi:
// one HttpApi (path, query, headers, JSON and form payloads, 201/204/text successes, a declared
// error, a defect, a service given to the group only, handleRaw and middleware, which go to the
// stock builder) served three ways, the same table of requests, the same statuses, types and
// bodies. And @effect/platform's "handler level context" test on a group Strata compiles (in the
// platform's suite that group has middleware, so it goes to the stock builder).
import * as HttpApi from "@effect/platform/HttpApi";
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder";
import * as HttpApiClient from "@effect/platform/HttpApiClient";
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import * as HttpApiError from "@effect/platform/HttpApiError";
import * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware";
import * as HttpApiSchema from "@effect/platform/HttpApiSchema";
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as DateTime from "effect/DateTime";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
import { StrataHttpApi } from "../../src/effect/index.js";
import { serveTest } from "../../src/testing/index.js";

class ItemNotFound extends Schema.TaggedError<ItemNotFound>()(
  "ItemNotFound",
  { id: Schema.Number },
  HttpApiSchema.annotations({ status: 404 }),
) {}

class CurrentUser extends Context.Tag("test/CurrentUser")<CurrentUser, string>() {}

class Auth extends HttpApiMiddleware.Tag<Auth>()("test/Auth", {
  failure: HttpApiError.Unauthorized,
  provides: CurrentUser,
}) {}

/** Given to the group's Layer only: the handlers must still see it per request. */
class Greeter extends Context.Tag("test/Greeter")<Greeter, (name: string) => string>() {}
/** Given to the whole app, outside the API. */
class Counter extends Context.Tag("test/Counter")<Counter, () => number>() {}

const Id = Schema.Struct({ id: Schema.NumberFromString });
const Item = Schema.Struct({ id: Schema.Number, name: Schema.String });

const Api = HttpApi.make("table")
  .add(
    HttpApiGroup.make("items")
      .add(
        HttpApiEndpoint.get("find", "/items/:id")
          .setPath(Id)
          .addSuccess(Item)
          .addError(ItemNotFound),
      )
      .add(
        HttpApiEndpoint.get("search", "/search")
          .setUrlParams(
            Schema.Struct({ q: Schema.String, tag: Schema.optional(Schema.Array(Schema.String)) }),
          )
          .addSuccess(Schema.Struct({ q: Schema.String, tags: Schema.Array(Schema.String) })),
      )
      .add(
        HttpApiEndpoint.get("whoami", "/whoami")
          .setHeaders(Schema.Struct({ "x-user": Schema.String }))
          .addSuccess(Schema.String),
      )
      .add(
        HttpApiEndpoint.post("create", "/items")
          .setPayload(Schema.Struct({ name: Schema.NonEmptyString }))
          .addSuccess(Item, { status: 201 }),
      )
      .add(
        HttpApiEndpoint.post("form", "/form")
          .setPayload(
            HttpApiSchema.withEncoding(Schema.Struct({ a: Schema.String }), { kind: "UrlParams" }),
          )
          .addSuccess(Schema.Struct({ a: Schema.String })),
      )
      .add(
        HttpApiEndpoint.del("remove", "/items/:id").setPath(Id).addSuccess(HttpApiSchema.NoContent),
      )
      .add(HttpApiEndpoint.get("text", "/text").addSuccess(HttpApiSchema.Text()))
      .add(
        HttpApiEndpoint.get("greet", "/greet/:name")
          .setPath(Schema.Struct({ name: Schema.String }))
          .addSuccess(Schema.Struct({ greeting: Schema.String, count: Schema.Number })),
      )
      .add(HttpApiEndpoint.get("boom", "/boom").addSuccess(Schema.String))
      .add(HttpApiEndpoint.get("raw", "/raw").addSuccess(Schema.String)),
  )
  .add(
    HttpApiGroup.make("secure")
      .add(HttpApiEndpoint.get("me", "/me").addSuccess(Schema.String))
      .middleware(Auth),
  );

type Builders = Pick<typeof StrataHttpApi, "group" | "addHttpApi">;

const routesWith = (builders: Builders) => {
  const items = builders
    .group(Api, "items", (handlers) =>
      Effect.map(Greeter, (greet) =>
        handlers
          .handle("find", ({ path }) =>
            path.id === 7
              ? Effect.fail(new ItemNotFound({ id: 7 }))
              : Effect.succeed({ id: path.id, name: `item ${path.id}` }),
          )
          .handle("search", ({ urlParams }) =>
            Effect.succeed({ q: urlParams.q, tags: urlParams.tag ?? [] }),
          )
          .handle("whoami", ({ headers }) => Effect.succeed(headers["x-user"]))
          .handle("create", ({ payload }) => Effect.succeed({ id: 3, name: payload.name }))
          .handle("form", ({ payload }) => Effect.succeed(payload))
          .handle("remove", () => Effect.void)
          .handle("text", () => Effect.succeed("plain text"))
          .handle("greet", ({ path }) =>
            // Both services are read per request: Greeter from the group's Layer, Counter from the app.
            Effect.map(Effect.all([Greeter, Counter]), ([perRequest, counter]) => ({
              greeting: perRequest === greet ? greet(path.name) : "another Greeter",
              count: counter(),
            })),
          )
          .handle("boom", () => Effect.die(new Error("secret detail")))
          .handleRaw("raw", ({ request }) =>
            Effect.succeed(HttpServerResponse.text(`raw ${request.method}`, { status: 202 })),
          ),
      ),
    )
    .pipe(Layer.provide(Layer.succeed(Greeter, (name: string) => `hello ${name}`)));
  const secure = builders.group(Api, "secure", (handlers) =>
    handlers.handle("me", () => CurrentUser),
  );
  const auth = Layer.succeed(
    Auth,
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      request.headers["x-token"] === "t"
        ? Effect.succeed("ann")
        : Effect.fail(new HttpApiError.Unauthorized()),
    ),
  );
  let count = 0;
  return builders
    .addHttpApi(Api)
    .pipe(
      Layer.provide([items, secure.pipe(Layer.provide(auth))]),
      Layer.provide(Layer.succeed(Counter, () => ++count)),
    );
};

const stockBuilders: Builders = {
  group: HttpApiBuilder.group,
  addHttpApi: HttpLayerRouter.addHttpApi,
};

const requests: ReadonlyArray<readonly [string, HttpClientRequest.HttpClientRequest]> = [
  ["path", HttpClientRequest.get("/items/1")],
  ["declared error", HttpClientRequest.get("/items/7")],
  ["path refused", HttpClientRequest.get("/items/abc")],
  ["one query value", HttpClientRequest.get("/search?q=a&tag=x")],
  ["two query values", HttpClientRequest.get("/search?q=a&tag=x&tag=y")],
  ["query refused", HttpClientRequest.get("/search")],
  ["header", HttpClientRequest.get("/whoami").pipe(HttpClientRequest.setHeader("x-user", "bo"))],
  ["header missing", HttpClientRequest.get("/whoami")],
  [
    "json payload",
    HttpClientRequest.post("/items").pipe(HttpClientRequest.bodyUnsafeJson({ name: "n" })),
  ],
  [
    "json payload refused",
    HttpClientRequest.post("/items").pipe(HttpClientRequest.bodyUnsafeJson({ name: "" })),
  ],
  [
    "form payload",
    HttpClientRequest.post("/form").pipe(HttpClientRequest.bodyUrlParams({ a: "1" })),
  ],
  ["no content", HttpClientRequest.del("/items/1")],
  ["text", HttpClientRequest.get("/text")],
  ["group service", HttpClientRequest.get("/greet/bob")],
  ["defect", HttpClientRequest.get("/boom")],
  ["handleRaw", HttpClientRequest.get("/raw")],
  [
    "middleware passes",
    HttpClientRequest.get("/me").pipe(HttpClientRequest.setHeader("x-token", "t")),
  ],
  ["middleware refuses", HttpClientRequest.get("/me")],
];

/** Every request of the table, in order: status, content type, body. */
const answers = Effect.forEach(requests, ([name, request]) =>
  Effect.flatMap(HttpClient.execute(request), (response) =>
    Effect.map(response.text, (body) => ({
      name,
      status: response.status,
      type: response.headers["content-type"],
      body,
    })),
  ),
);

const onStrata = (builders: Builders) =>
  Effect.provide(
    answers,
    serveTest(routesWith(builders).pipe(Layer.provide(NodeHttpServer.layerContext))),
  );
const onPlatform = (builders: Builders) =>
  Effect.provide(
    answers,
    HttpLayerRouter.serve(routesWith(builders).pipe(Layer.provide(NodeHttpServer.layerContext)), {
      disableLogger: true,
    }).pipe(Layer.provideMerge(NodeHttpServer.layerTest)),
  );

describe("StrataHttpApi", () => {
  it.live(
    "answers every request as the stock builders do, on Strata's server and the platform's",
    () =>
      Effect.gen(function* () {
        const stock = yield* onStrata(stockBuilders);
        const strata = yield* onStrata(StrataHttpApi);
        const strataOnPlatform = yield* onPlatform(StrataHttpApi);
        const stockOnPlatform = yield* onPlatform(stockBuilders);
        expect(strata).toEqual(stock);
        expect(strataOnPlatform).toEqual(stockOnPlatform);
        const byName = Object.fromEntries(strata.map((answer) => [answer.name, answer]));
        expect(byName.path).toMatchObject({ status: 200, body: '{"id":1,"name":"item 1"}' });
        expect(byName["declared error"]).toMatchObject({ status: 404 });
        expect(JSON.parse(byName["declared error"].body)).toEqual({ _tag: "ItemNotFound", id: 7 });
        expect(byName["path refused"].status).toBe(400);
        expect(JSON.parse(byName["one query value"].body)).toEqual({ q: "a", tags: ["x"] });
        expect(JSON.parse(byName["two query values"].body)).toEqual({ q: "a", tags: ["x", "y"] });
        expect(byName["query refused"].status).toBe(400);
        expect(byName.header).toMatchObject({ status: 200, body: '"bo"' });
        expect(byName["header missing"].status).toBe(400);
        expect(byName["json payload"]).toMatchObject({ status: 201, body: '{"id":3,"name":"n"}' });
        expect(byName["json payload refused"].status).toBe(400);
        expect(byName["form payload"]).toMatchObject({ status: 200, body: '{"a":"1"}' });
        expect(byName["no content"]).toMatchObject({ status: 204, body: "" });
        expect(byName.text).toMatchObject({ status: 200, body: "plain text" });
        expect(byName.text.type).toMatch(/^text\/plain/);
        expect(JSON.parse(byName["group service"].body)).toEqual({
          greeting: "hello bob",
          count: 1,
        });
        expect(byName.defect.status).toBe(500);
        expect(byName.defect.body).not.toContain("secret detail");
        expect(byName.handleRaw).toMatchObject({ status: 202, body: "raw GET" });
        expect(byName["middleware passes"]).toMatchObject({ status: 200, body: '"ann"' });
        expect(byName["middleware refuses"].status).toBe(401);
      }),
  );
});

// @effect/platform's own "handler level context" test, on a group Strata compiles (no middleware):
// the group's Layer gives the time zone, the handler reads it per request.
class User extends Schema.Class<User>("User")({
  id: Schema.Int,
  name: Schema.String,
  createdAt: Schema.DateTimeUtc,
}) {}

const UsersApi = HttpApi.make("api").add(
  HttpApiGroup.make("users").add(
    HttpApiEndpoint.get("list", "/users")
      .setHeaders(Schema.Struct({ page: Schema.NumberFromString }))
      .addSuccess(Schema.Array(User)),
  ),
);

const UsersLive = StrataHttpApi.group(UsersApi, "users", (handlers) =>
  handlers.handle("list", ({ headers }) =>
    Effect.map(DateTime.nowInCurrentZone, (now) => [
      new User({ id: 1, name: `page ${headers.page}`, createdAt: DateTime.toUtc(now) }),
    ]),
  ),
).pipe(Layer.provide(DateTime.layerCurrentZoneOffset(0)));

const UsersRoutes = StrataHttpApi.addHttpApi(UsersApi).pipe(
  Layer.provide(UsersLive),
  Layer.provide(NodeHttpServer.layerContext),
);

const listUsers = Effect.gen(function* () {
  const client = yield* HttpApiClient.make(UsersApi);
  const users = yield* client.users.list({ headers: { page: 1 } });
  const user = users[0] as User;
  expect(user.name).toBe("page 1");
  expect(user.createdAt).toEqual(DateTime.unsafeMake(0));
});

describe("StrataHttpApi: handler level context, on a compiled group", () => {
  it.effect("on Strata's server", () => Effect.provide(listUsers, serveTest(UsersRoutes)));
  it.effect("on the platform's server", () =>
    Effect.provide(
      listUsers,
      HttpLayerRouter.serve(UsersRoutes, { disableLogger: true }).pipe(
        Layer.provideMerge(NodeHttpServer.layerTest),
      ),
    ),
  );
});
