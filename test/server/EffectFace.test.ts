import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it, layer } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { Injector } from "../../src/di/Injector.js";
import {
  Controller,
  Get,
  Injectable,
  Module,
  NotFoundError,
  Param,
  Scope,
  StartupError,
  StrataApp,
} from "../../src/index.js";
import { serveTest } from "../../src/testing/index.js";

const log: Array<string> = [];

@Injectable()
class GreetingService {
  readonly created = Date.now() + Math.random();
  greet(name: string) {
    return `Hello, ${name}`;
  }
  onModuleInit() {
    log.push("init GreetingService");
  }
  onModuleDestroy() {
    log.push("destroy GreetingService");
  }
}

@Injectable({ scope: Scope.REQUEST })
class PerRequest {}

@Controller("classic")
class ClassicController {
  constructor(readonly greetings: GreetingService) {}

  @Get(":name")
  greet(@Param("name") name: string) {
    return { greeting: this.greetings.greet(name), from: "classic" };
  }

  @Get("effect/:name")
  viaEffect(@Param("name") name: string) {
    return Effect.succeed({ greeting: this.greetings.greet(name), from: "classic-effect" });
  }
}

@Module({ controllers: [ClassicController], providers: [GreetingService, PerRequest] })
class AppModule {}

class Item {
  constructor(
    readonly id: string,
    readonly name: string,
  ) {}
}

const items = new Map([["1", new Item("1", "first")]]);

const effectRoutes = Layer.mergeAll(
  HttpLayerRouter.add("GET", "/hello", HttpServerResponse.unsafeJson({ hello: "effect" })),
  HttpLayerRouter.add("GET", "/missing", Effect.fail(new NotFoundError())),
  HttpLayerRouter.add("GET", "/gone", Effect.fail(new NotFoundError("Item is gone"))),
  HttpLayerRouter.add(
    "GET",
    "/items/:id",
    Effect.gen(function* () {
      const { id } = yield* HttpLayerRouter.params;
      const item = items.get(id ?? "");
      if (item === undefined) return yield* new NotFoundError(`No item ${id}`);
      return HttpServerResponse.unsafeJson(item);
    }),
  ),
  HttpLayerRouter.add("GET", "/defect", Effect.die(new Error("secret internals"))),
);

const appLayer = StrataApp.layer(AppModule);

/** An Effect route built from a classic singleton, looked up through the app's Injector. */
const injectedRoute = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const injector = yield* Injector;
    const node = injector.lookup(GreetingService);
    if (node === undefined) return yield* Effect.die("GreetingService is not provided");
    const service = (yield* Effect.orDie(injector.instance(node, undefined))) as GreetingService;
    yield* router.add(
      "GET",
      "/injected",
      Effect.sync(() =>
        HttpServerResponse.unsafeJson({ greeting: service.greet("Effect"), id: service.created }),
      ),
    );
  }),
);

describe("Effect face", () => {
  layer(serveTest(Layer.mergeAll(effectRoutes, Layer.provideMerge(injectedRoute, appLayer))))(
    "Effect routes and classic controllers on one server",
    (it) => {
      it.effect("answers an Effect route", () =>
        Effect.gen(function* () {
          const response = yield* HttpClient.get("/hello");
          expect(response.status).toBe(200);
          expect(yield* response.json).toEqual({ hello: "effect" });
        }),
      );

      it.effect("answers a classic controller route on the same server", () =>
        Effect.gen(function* () {
          const response = yield* HttpClient.get("/classic/Ada");
          expect(response.status).toBe(200);
          expect(yield* response.json).toEqual({ greeting: "Hello, Ada", from: "classic" });
          const viaEffect = yield* HttpClient.get("/classic/effect/Bo");
          expect(yield* viaEffect.json).toEqual({ greeting: "Hello, Bo", from: "classic-effect" });
        }),
      );

      it.effect("turns a NotFoundError from an Effect route into the standard 404 body", () =>
        Effect.gen(function* () {
          const missing = yield* HttpClient.get("/missing");
          expect(missing.status).toBe(404);
          expect(yield* missing.json).toEqual({ statusCode: 404, message: "Not Found" });
          const gone = yield* HttpClient.get("/gone");
          expect(gone.status).toBe(404);
          expect(yield* gone.json).toEqual({ statusCode: 404, message: "Item is gone" });
          const item = yield* HttpClient.get("/items/2");
          expect(item.status).toBe(404);
          expect(yield* item.json).toEqual({ statusCode: 404, message: "No item 2" });
          const found = yield* HttpClient.get("/items/1");
          expect(yield* found.json).toEqual({ id: "1", name: "first" });
        }),
      );

      it.effect("gives an unmatched route the same 404 shape", () =>
        Effect.gen(function* () {
          const response = yield* HttpClient.get("/nowhere");
          expect(response.status).toBe(404);
          expect(yield* response.json).toEqual({ statusCode: 404, message: "Not Found" });
        }),
      );

      it.effect("hides a defect behind a bare 500", () =>
        Effect.gen(function* () {
          const response = yield* HttpClient.get("/defect");
          expect(response.status).toBe(500);
          const text = yield* response.text;
          expect(JSON.parse(text)).toEqual({ statusCode: 500, message: "Internal Server Error" });
          expect(text).not.toContain("secret");
        }),
      );

      it.effect("gives Effect code the classic singletons through the Injector", () =>
        Effect.gen(function* () {
          const response = yield* HttpClient.get("/injected");
          expect(response.status).toBe(200);
          const body = (yield* response.json) as { greeting: string; id: number };
          expect(body.greeting).toBe("Hello, Effect");

          // The test itself sees the same Injector, hence the same singleton the route uses.
          const injector = yield* Injector;
          const node = injector.lookup(GreetingService);
          expect(node).toBeDefined();
          if (node === undefined) return;
          const a = yield* injector.instance(node, undefined);
          const b = yield* injector.instance(node, undefined);
          expect(a).toBeInstanceOf(GreetingService);
          expect(a).toBe(b);
          expect((a as GreetingService).created).toBe(body.id);
          expect(injector.lookup("not-a-token")).toBeUndefined();
          const perRequest = injector.lookup(PerRequest);
          expect(perRequest).toBeDefined();
          if (perRequest === undefined) return;
          const error = yield* Effect.flip(injector.instance(perRequest, undefined));
          expect(error).toBeInstanceOf(StartupError);
        }),
      );
    },
  );

  layer(serveTest(effectRoutes))("Effect routes alone", (it) => {
    it.effect("serves plain HttpLayerRouter routes", () =>
      Effect.gen(function* () {
        const response = yield* HttpClient.get("/hello");
        expect(yield* response.json).toEqual({ hello: "effect" });
        const missing = yield* HttpClient.get("/classic/Ada");
        expect(missing.status).toBe(404);
      }),
    );
  });

  it.effect("builds singletons with the layer and releases them with its scope", () =>
    Effect.gen(function* () {
      log.length = 0;
      yield* Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(serveTest(StrataApp.layer(AppModule)));
          expect(log).toEqual(["init GreetingService"]);
          const response = yield* HttpClient.get("/classic/Cy").pipe(Effect.provide(context));
          expect(response.status).toBe(200);
          expect(log).toEqual(["init GreetingService"]);
        }),
      );
      expect(log).toEqual(["init GreetingService", "destroy GreetingService"]);
    }),
  );

  it.scoped("serves Effect routes with it.scoped and a scoped layer", () =>
    Effect.gen(function* () {
      const context = yield* Layer.build(
        serveTest(Layer.mergeAll(effectRoutes, StrataApp.layer(AppModule))),
      );
      const [hello, classic] = yield* Effect.all(
        [HttpClient.get("/hello"), HttpClient.get("/classic/Di")],
        { concurrency: 2 },
      ).pipe(Effect.provide(context));
      expect(yield* hello.json).toEqual({ hello: "effect" });
      expect(yield* classic.json).toEqual({ greeting: "Hello, Di", from: "classic" });
    }),
  );

  it.scoped("builds a Layer used by the served Layer and by the rest of the app once", () =>
    Effect.gen(function* () {
      let builds = 0;
      class Counter extends Context.Tag("test/Counter")<Counter, { readonly id: number }>() {}
      const CounterLive = Layer.sync(Counter, () => ({ id: ++builds }));
      const seen: Array<string> = [];
      const using = (where: string) =>
        Layer.effectDiscard(
          Effect.map(Counter, ({ id }) => {
            seen.push(`${where} ${id}`);
          }),
        ).pipe(Layer.provide(CounterLive));
      const served = serveTest(Layer.merge(effectRoutes, using("served")));
      const context = yield* Layer.build(Layer.merge(served, using("outside")));
      const response = yield* HttpClient.get("/hello").pipe(Effect.provide(context));
      expect(yield* response.json).toEqual({ hello: "effect" });
      expect(seen.sort()).toEqual(["outside 1", "served 1"]);
      expect(builds).toBe(1);
    }),
  );

  it.effect("fails the layer with a StartupError for a broken module", () =>
    Effect.gen(function* () {
      @Injectable()
      class Missing {}
      @Injectable()
      class Broken {
        constructor(readonly missing: Missing) {}
      }
      @Module({ providers: [Broken] })
      class BrokenModule {}
      const error = yield* Effect.flip(
        Effect.scoped(Layer.build(serveTest(StrataApp.layer(BrokenModule)))),
      );
      expect(error).toBeInstanceOf(StartupError);
      expect((error as StartupError).message).toContain("parameter #0 (Missing) of Broken");
    }),
  );
});
