import { createServer } from "node:http";
import { createConnection } from "node:net";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServer from "@effect/platform/HttpServer";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as Layer from "effect/Layer";
import * as Scope from "effect/Scope";
import { Injector } from "../../src/di/Injector.js";
import { StrataServer } from "../../src/effect/index.js";
import {
  type ArgumentsHost,
  BadRequestError,
  type CallHandler,
  type CanActivate,
  Catch,
  ConflictError,
  Controller,
  type ExceptionFilter,
  type ExecutionContext,
  Get,
  HealthCheckManager,
  Injectable,
  Interceptor,
  type MiddlewareContext,
  Module,
  type OnModuleDestroy,
  type OnModuleInit,
  OperationsModule,
  Param,
  PipeTransform,
  ShutdownManager,
  StartupError,
  StrataApp,
  type StrataAppOptions,
  type StrataMiddleware,
} from "../../src/index.js";
import { capturingLogger } from "../support/started.js";

const log: Array<string> = [];

/** Lets `/items/held` requests through one at a time, on demand. */
const gate = { held: 0, open: () => {}, opened: Promise.resolve() };
const closeGate = () => {
  gate.held = 0;
  gate.opened = new Promise((resolve) => {
    gate.open = () => resolve();
  });
};

/** Registers a readiness check and a shutdown handler, as an app's database would. */
@Injectable()
class Database implements OnModuleInit, OnModuleDestroy {
  constructor(
    readonly health: HealthCheckManager,
    readonly shutdown: ShutdownManager,
  ) {}
  onModuleInit() {
    log.push("init Database");
    this.health.register({ name: "database", check: () => true });
    this.shutdown.register((signal) => {
      log.push(`shutdown handler (${signal})`);
    });
  }
  onModuleDestroy() {
    log.push("destroy Database");
  }
}

@Injectable()
class NoSecrets implements CanActivate {
  canActivate(context: ExecutionContext) {
    return !context.url.includes("secret");
  }
}

class NoBadValues extends PipeTransform {
  transform(value: unknown) {
    if (value === "bad") throw new BadRequestError("No bad values");
    return value;
  }
}

class Stamp extends Interceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    context.switchToHttp().getResponse().setHeader("x-intercepted", "yes");
    return next();
  }
}

@Catch(ConflictError)
class ConflictFilter implements ExceptionFilter<ConflictError> {
  catch(exception: ConflictError, host: ArgumentsHost) {
    host.switchToHttp().getResponse().status(409).json({ filtered: exception.message });
  }
}

/** App-wide middleware, a class the app creates through dependency injection. */
@Injectable()
class PoweredBy implements StrataMiddleware {
  use(context: MiddlewareContext) {
    context.setHeader("x-powered-by", "strata");
  }
}

@Controller("items")
class ItemsController {
  constructor(readonly db: Database) {}

  @Get("held")
  held() {
    gate.held++;
    return gate.opened.then(() => {
      log.push("held done");
      return { held: true };
    });
  }

  @Get(":id")
  one(@Param("id") id: string) {
    if (id === "taken") throw new ConflictError("Already taken");
    return Effect.as(Effect.log(`item ${id}`), { id });
  }
}

@Module({ imports: [OperationsModule], controllers: [ItemsController], providers: [Database] })
class AppModule {}

const appOptions = (extra: StrataAppOptions = {}): StrataAppOptions => ({
  globalGuards: [NoSecrets],
  globalPipes: [new NoBadValues()],
  globalInterceptors: [new Stamp()],
  globalFilters: [ConflictFilter],
  globalMiddleware: [PoweredBy],
  shutdown: { signals: false },
  ...extra,
});

/** An Effect route of the app's own, merged with the classic app. */
const effectRoute = HttpLayerRouter.add(
  "GET",
  "/effect/hello",
  Effect.as(Effect.log("effect hello"), HttpServerResponse.unsafeJson({ hello: "effect" })),
);

const listen = { port: 0, host: "127.0.0.1" } as const;

/** `StrataApp.layer` merged with an Effect route, served on Strata's server. */
const served = (options: StrataAppOptions, serveOptions?: StrataServer.ServeOptions) =>
  StrataServer.serve(
    Layer.merge(StrataApp.layer(AppModule, options), effectRoute),
    serveOptions,
  ).pipe(Layer.provideMerge(StrataServer.layerNode(listen)));

const urlOf = (context: Context.Context<HttpServer.HttpServer>) => {
  const { address } = Context.get(context, HttpServer.HttpServer);
  return `http://127.0.0.1:${address._tag === "TcpAddress" ? address.port : 0}`;
};

/** The app's `Database`, through the Injector the Layer provides. */
const databaseOf = (context: Context.Context<Injector>) => {
  const injector = Context.get(context, Injector);
  const node = injector.lookup(Database);
  return Effect.map(
    Effect.orDie(injector.instance(node as never, undefined)),
    (db) => db as Database,
  );
};

/** What the tests compare of a response. */
interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly cacheControl: string | null;
  readonly intercepted: string | null;
  readonly poweredBy: string | null;
  readonly body: unknown;
}

const ask = (base: string, path: string) =>
  Effect.promise(async (): Promise<Answer> => {
    const response = await fetch(`${base}${path}`);
    const text = await response.text();
    return {
      status: response.status,
      contentType: response.headers.get("content-type"),
      cacheControl: response.headers.get("cache-control"),
      intercepted: response.headers.get("x-intercepted"),
      poweredBy: response.headers.get("x-powered-by"),
      body: JSON.parse(text),
    };
  });

const json = "application/json";
const table: ReadonlyArray<readonly [string, string, Partial<Answer>]> = [
  [
    "a route through every global enhancer",
    "/items/1",
    { status: 200, intercepted: "yes", poweredBy: "strata", body: { id: "1" } },
  ],
  [
    "a route the global guard refuses",
    "/items/secret",
    {
      status: 403,
      intercepted: null,
      poweredBy: "strata",
      body: { statusCode: 403, message: "Forbidden" },
    },
  ],
  [
    "a value the global pipe refuses",
    "/items/bad",
    {
      status: 400,
      poweredBy: "strata",
      body: { statusCode: 400, message: "No bad values" },
    },
  ],
  [
    "an error the global filter answers",
    "/items/taken",
    { status: 409, poweredBy: "strata", body: { filtered: "Already taken" } },
  ],
  [
    "liveness",
    "/health",
    { status: 200, cacheControl: "no-store", poweredBy: "strata", body: { status: "up" } },
  ],
  [
    "readiness, with the check a provider registered",
    "/ready",
    {
      status: 200,
      cacheControl: "no-store",
      poweredBy: "strata",
      body: { status: "up", checks: [{ name: "database", status: "up" }] },
    },
  ],
  [
    "an unknown route",
    "/nowhere",
    {
      status: 404,
      contentType: json,
      intercepted: null,
      poweredBy: "strata",
      body: { statusCode: 404, message: "Not Found" },
    },
  ],
];

describe("StrataApp.layer: the whole app as a Layer", () => {
  it.scoped(
    "answers as app.listen() does, global enhancers, middleware, probes and logger included",
    () =>
      Effect.gen(function* () {
        const classic = capturingLogger();
        const app = new StrataApp(AppModule, appOptions({ logger: classic.logger }));
        yield* Effect.acquireRelease(
          Effect.promise(() => app.listen(0, "127.0.0.1")),
          () => Effect.promise(() => app.close()),
        );
        const effect = capturingLogger();
        const context = yield* Layer.build(served(appOptions({ logger: effect.logger })));
        const base = urlOf(context);
        for (const [what, path, expected] of table) {
          const viaListen = yield* ask(app.getUrl(), path);
          const viaLayer = yield* ask(base, path);
          expect(viaLayer, what).toEqual(viaListen);
          expect(viaLayer, what).toMatchObject(expected);
        }
        // The Effect route merged in runs inside the app-wide middleware too.
        expect(yield* ask(base, "/effect/hello")).toMatchObject({
          status: 200,
          poweredBy: "strata",
          body: { hello: "effect" },
        });
        // Both log with the app's logger: classic handlers, and the Effect route served with it.
        const messages = (lines: ReadonlyArray<{ message: string }>) =>
          lines
            .map((line) => line.message)
            .filter((m) => m.startsWith("item ") || m.includes("hello"));
        expect(messages(classic.lines)).toEqual(["item 1"]);
        expect(messages(effect.lines)).toEqual(["item 1", "effect hello"]);
      }),
  );

  it.scoped("answers the same on the platform's own server, app-wide middleware included", () =>
    Effect.gen(function* () {
      const app = new StrataApp(AppModule, appOptions());
      yield* Effect.acquireRelease(
        Effect.promise(() => app.listen(0, "127.0.0.1")),
        () => Effect.promise(() => app.close()),
      );
      const stock = HttpLayerRouter.serve(
        Layer.merge(StrataApp.layer(AppModule, appOptions()), effectRoute),
        { disableListenLog: true },
      ).pipe(Layer.provideMerge(NodeHttpServer.layer(createServer, listen)));
      const base = urlOf(yield* Layer.build(stock));
      for (const [what, path] of table) {
        expect(yield* ask(base, path), what).toEqual(yield* ask(app.getUrl(), path));
      }
      expect((yield* ask(base, "/effect/hello")).poweredBy).toBe("strata");
    }),
  );

  it.effect(
    "runs onModuleInit as the Layer is built, the shutdown handlers then onModuleDestroy as its scope closes",
    () =>
      Effect.gen(function* () {
        log.length = 0;
        yield* Effect.scoped(
          Effect.gen(function* () {
            const context = yield* Layer.build(served(appOptions()));
            expect(log).toEqual(["init Database"]);
            expect((yield* ask(urlOf(context), "/items/2")).status).toBe(200);
            expect(log).toEqual(["init Database"]);
          }),
        );
        expect(log).toEqual(["init Database", "shutdown handler (undefined)", "destroy Database"]);
      }),
  );

  it.live(
    "answers /ready 503 while in-flight requests drain, then runs the handlers and destroys",
    () =>
      Effect.gen(function* () {
        log.length = 0;
        closeGate();
        const scope = yield* Scope.make();
        const context = yield* Layer.buildWithScope(served(appOptions()), scope);
        const db = yield* databaseOf(context);
        const { port } = new URL(urlOf(context));
        const socket = createConnection({ host: "127.0.0.1", port: Number(port) });
        let received = "";
        socket.on("data", (chunk: Buffer) => {
          received += chunk.toString();
        });
        const ended = new Promise((resolve) => socket.once("close", resolve));
        socket.write("GET /items/held HTTP/1.1\r\nHost: x\r\n\r\n");
        yield* Effect.promise(() => until(() => gate.held === 1));
        const closing = yield* Effect.fork(Scope.close(scope, Exit.void));
        yield* Effect.promise(() => until(() => db.shutdown.isShuttingDown));
        // Behind the held request on its connection, while the server drains.
        socket.write("GET /ready HTTP/1.1\r\nHost: x\r\n\r\n");
        yield* Effect.sleep("50 millis");
        expect(log).toEqual(["init Database"]);
        gate.open();
        yield* Fiber.join(closing);
        yield* Effect.promise(() => ended);
        expect(log).toEqual([
          "init Database",
          "held done",
          "shutdown handler (undefined)",
          "destroy Database",
        ]);
        const [held, ready] = received.split(/(?=HTTP\/1\.1 )/);
        expect(held).toMatch(/^HTTP\/1\.1 200[\s\S]*"held":true/);
        expect(ready).toMatch(/^HTTP\/1\.1 503[\s\S]*[Cc]onnection: close/);
        expect(JSON.parse(ready?.split("\r\n\r\n")[1] ?? "")).toEqual({
          status: "down",
          checks: [{ name: "shutdown", status: "down", details: { error: "Shutting down" } }],
        });
      }),
  );

  it.live("gives a hanging shutdown handler its timeout when the Layer's scope closes", () =>
    Effect.gen(function* () {
      @Injectable()
      class Hanging implements OnModuleInit {
        constructor(readonly shutdown: ShutdownManager) {}
        onModuleInit() {
          this.shutdown.register(() => new Promise<void>(() => undefined));
        }
      }
      @Module({ imports: [OperationsModule], providers: [Hanging] })
      class HangingModule {}
      const { logger, lines } = capturingLogger();
      const app = StrataApp.layer(HangingModule, { logger, shutdown: { timeout: 50 } });
      const began = Date.now();
      yield* Effect.scoped(
        Layer.build(StrataServer.serve(app).pipe(Layer.provide(StrataServer.layerNode(listen)))),
      );
      expect(Date.now() - began).toBeLessThan(1_000);
      expect(lines.map((line) => line.message)).toContain("Shutdown handler #1 failed");
      expect(lines.some((line) => line.text.includes("did not finish within 50 ms"))).toBe(true);
    }),
  );

  it.scoped("runs serve's own middleware outside the app's", () =>
    Effect.gen(function* () {
      const outer: HttpMiddleware.HttpMiddleware = (app) =>
        Effect.map(app, (response) =>
          HttpServerResponse.setHeader(
            response,
            "x-outer",
            `saw ${response.headers["x-powered-by"] ?? "nothing"}`,
          ),
        );
      const context = yield* Layer.build(served(appOptions(), { middleware: outer }));
      const response = yield* Effect.promise(() => fetch(`${urlOf(context)}/items/1`));
      expect(response.headers.get("x-outer")).toBe("saw strata");
      expect(response.headers.get("x-powered-by")).toBe("strata");
    }),
  );

  it.effect(
    "fails the start when an Effect route takes a probe's path, and not once the probe moves",
    () =>
      Effect.gen(function* () {
        const own = HttpLayerRouter.add(
          "GET",
          "/health",
          HttpServerResponse.unsafeJson({ own: true }),
        );
        const serving = (options: StrataAppOptions) =>
          StrataServer.serve(Layer.merge(StrataApp.layer(AppModule, options), own)).pipe(
            Layer.provideMerge(StrataServer.layerNode(listen)),
          );
        const exit = yield* Effect.exit(Effect.scoped(Layer.build(serving(appOptions()))));
        expect(Exit.isFailure(exit)).toBe(true);
        yield* Effect.scoped(
          Effect.gen(function* () {
            const context = yield* Layer.build(
              serving(appOptions({ health: { livenessPath: "/livez" } })),
            );
            expect((yield* ask(urlOf(context), "/health")).body).toEqual({ own: true });
            expect((yield* ask(urlOf(context), "/livez")).body).toEqual({ status: "up" });
          }),
        );
      }),
  );

  it.effect("refuses a routerConfig that serve does not use, and serves with the one it does", () =>
    Effect.gen(function* () {
      const options = appOptions({ routerConfig: { caseSensitive: true } });
      const error = yield* Effect.flip(Effect.scoped(Layer.build(served(options))));
      expect(error).toBeInstanceOf(StartupError);
      expect((error as StartupError).message).toMatch(
        /give the same routerConfig to StrataServer\.serve/,
      );
      yield* Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(
            served(options, { routerConfig: { caseSensitive: true } }),
          );
          expect((yield* ask(urlOf(context), "/items/1")).status).toBe(200);
          expect((yield* ask(urlOf(context), "/ITEMS/1")).status).toBe(404);
        }),
      );
    }),
  );
});

/** Resolves once `condition` holds (polled every 5 ms). */
const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};
