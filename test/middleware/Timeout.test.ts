import * as HttpApp from "@effect/platform/HttpApp";
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as FiberId from "effect/FiberId";
import * as Layer from "effect/Layer";
import * as Stream from "effect/Stream";
import { describe, expect, it, vi } from "vitest";
import { Middleware, Timeout } from "../../src/effect/index.js";
import {
  Controller,
  CorsMiddleware,
  Get,
  Injectable,
  LoggerMiddleware,
  Module,
  RateLimitMiddleware,
  Scope,
  SecurityHeadersMiddleware,
  StrataApp,
  TimeoutMiddleware,
} from "../../src/index.js";
import { RateLimitStore } from "../../src/middleware/RateLimitStore.js";
import { DEFAULT_TIMEOUT } from "../../src/middleware/Timeout.js";
import { outermostForms } from "../../src/server/internal/DecoratedRun.js";
import { request, serveTest } from "../../src/testing/index.js";
import { capturingLogger, startedApps } from "../support/started.js";

const events: Array<string> = [];
const fibers: Array<FiberId.FiberId> = [];

/** How long the request-scoped provider takes to be destroyed (ms). */
let slowDestroy = 0;

@Injectable({ scope: Scope.REQUEST })
class RequestWork {
  async onModuleDestroy() {
    if (slowDestroy > 0) await new Promise((resolve) => setTimeout(resolve, slowDestroy));
    events.push("request scope released");
  }
}

@Controller()
class SlowController {
  constructor(private readonly work: RequestWork) {}
  @Get("slow")
  slow() {
    void this.work;
    return Effect.sleep("10 seconds").pipe(
      Effect.as("too late"),
      Effect.ensuring(Effect.sync(() => events.push("handler finalizer ran"))),
    );
  }
  @Get("slow-promise")
  async slowPromise() {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return "too late";
  }
  @Get("fast")
  fast() {
    return { fast: true };
  }
  @Get("medium")
  medium() {
    return Effect.sleep("50 millis").pipe(Effect.as({ medium: true }));
  }
  @Get("fiber")
  fiber() {
    return Effect.map(Effect.fiberId, (id) => {
      fibers.push(id);
      return { ok: true };
    });
  }
  @Get("pre-response")
  preResponse() {
    return HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "x-pre", "yes")),
    ).pipe(Effect.zipRight(Effect.sleep("10 millis")), Effect.as("ok"));
  }
  @Get("slow-stream")
  slowStream() {
    // Ready at once, then 5 chunks 60 ms apart: streaming outlasts a 100 ms timeout.
    return HttpServerResponse.stream(
      Stream.fromIterable(["a", "b", "c", "d", "e"]).pipe(
        Stream.tap(() => Effect.sleep("60 millis")),
        Stream.encodeText,
      ),
      { contentType: "text/plain" },
    );
  }
}

@Module({ controllers: [SlowController], providers: [RequestWork] })
class AppModule {}

describe("TimeoutMiddleware", () => {
  const start = startedApps();

  it("interrupts a slow handler (its finalizers run) and answers 408 in the standard shape", async () => {
    events.length = 0;
    const app = await start(AppModule, {}, (app) =>
      app.use(new TimeoutMiddleware({ timeout: 100 })),
    );
    const began = Date.now();
    const response = await request(app, "GET", "/slow");
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(response.status).toBe(408);
    expect(response.body).toEqual({ statusCode: 408, message: "Request Timeout" });
    expect(events).toContain("handler finalizer ran");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toContain("request scope released");
  });

  it("answers 408 for a Promise that does not settle in time, and leaves fast routes alone", async () => {
    const app = await start(AppModule, {}, (app) =>
      app.use(new TimeoutMiddleware({ timeout: 100 })),
    );
    expect((await request(app, "GET", "/slow-promise")).status).toBe(408);
    const fast = await request(app, "GET", "/fast");
    expect(fast.status).toBe(200);
    expect(fast.body).toEqual({ fast: true });
  });

  const origin = "https://app.example.com";
  const behindDecorating = (store?: Layer.Layer<RateLimitStore>) =>
    start(AppModule, {}, (app) =>
      app.use(
        new CorsMiddleware({ origin: [origin] }),
        new SecurityHeadersMiddleware(),
        new RateLimitMiddleware({ max: 1_000, store }),
        new TimeoutMiddleware({ timeout: 100 }),
      ),
    );

  it("behind CORS, security headers and a rate limit, keeps the deadline on the request's fiber: the 408 gets their headers", async () => {
    const timeout = Effect.runSync(Timeout.make({ timeout: 100 }));
    const decorating = Middleware.decorating(() => undefined);
    const plain = Middleware.make((app) => app);
    expect(outermostForms.has(Middleware.compose(decorating, timeout))).toBe(true);
    expect(outermostForms.has(Middleware.compose(timeout, plain))).toBe(true);
    expect(outermostForms.has(Middleware.compose(plain, timeout))).toBe(false);
    expect(outermostForms.has(Middleware.compose(decorating, plain, timeout))).toBe(false);
    events.length = 0;
    const app = await behindDecorating();
    const slow = await request(app, "GET", "/slow", { headers: { origin } });
    expect(slow.status).toBe(408);
    expect(slow.body).toEqual({ statusCode: 408, message: "Request Timeout" });
    expect(slow.headers.get("access-control-allow-origin")).toBe(origin);
    expect(slow.headers.get("vary")).toBe("Origin");
    expect(slow.headers.get("x-content-type-options")).toBe("nosniff");
    expect(slow.headers.get("ratelimit-limit")).toBe("1000");
    expect(events).toContain("handler finalizer ran");
    expect(events).toContain("request scope released");
    const fast = await request(app, "GET", "/fast", { headers: { origin } });
    expect(fast.status).toBe(200);
    expect(fast.headers.get("ratelimit-remaining")).not.toBeNull();
    expect((await request(app, "GET", "/slow-promise")).status).toBe(408);
  });

  it("bounds producing the response, not streaming it", async () => {
    const app = await behindDecorating();
    const streamed = await request(app, "GET", "/slow-stream");
    expect(streamed.status).toBe(200);
    expect(streamed.text).toBe("abcde");
  });

  it("keeps the deadline on the request's own fiber there, and forks behind other middleware", async () => {
    const recordFiber = Middleware.decorating(() =>
      Effect.map(Effect.fiberId, (id) => {
        fibers.push(id);
        return undefined;
      }),
    );
    const inline = await start(AppModule, {}, (app) =>
      app.use(recordFiber, new TimeoutMiddleware({ timeout: 1_000 })),
    );
    fibers.length = 0;
    expect((await request(inline, "GET", "/fiber")).status).toBe(200);
    expect(fibers).toHaveLength(2);
    expect(FiberId.threadName(fibers[1])).toBe(FiberId.threadName(fibers[0]));
    const forked = await start(AppModule, {}, (app) =>
      app.use(
        Middleware.make((app) => app),
        recordFiber,
        new TimeoutMiddleware({ timeout: 1_000 }),
      ),
    );
    fibers.length = 0;
    expect((await request(forked, "GET", "/fiber")).status).toBe(200);
    expect(FiberId.threadName(fibers[1])).not.toBe(FiberId.threadName(fibers[0]));
  });

  it("starts no timer for a handler that answers at once, one for a handler that waits", async () => {
    const app = await behindDecorating();
    const timers = vi.spyOn(globalThis, "setTimeout");
    try {
      const deadlines = () => timers.mock.calls.filter(([, ms]) => ms === 100).length;
      expect((await request(app, "GET", "/fast")).status).toBe(200);
      expect(deadlines()).toBe(0);
      expect((await request(app, "GET", "/medium")).status).toBe(200);
      expect(deadlines()).toBe(1);
    } finally {
      timers.mockRestore();
    }
  });

  it("starts the deadline once an outer decision that had to wait is made (a slow rate-limit store)", async () => {
    const slowStore = Layer.succeed(RateLimitStore, {
      fixedWindow: () => Effect.as(Effect.sleep("80 millis"), { count: 1, resetMs: 1_000 }),
      tokenBucket: () =>
        Effect.as(Effect.sleep("80 millis"), { taken: true, remaining: 9, nextMs: 1, fullMs: 1 }),
    });
    const app = await behindDecorating(slowStore);
    // 80 ms deciding, then 50 ms of handler: within a 100 ms deadline counted from the decision.
    const medium = await request(app, "GET", "/medium");
    expect(medium.status).toBe(200);
    expect(medium.body).toEqual({ medium: true });
    const slow = await request(app, "GET", "/slow", { headers: { origin } });
    expect(slow.status).toBe(408);
    expect(slow.headers.get("access-control-allow-origin")).toBe(origin);
  });

  it("answers before the request scope has closed (a slow request-scoped onModuleDestroy)", async () => {
    slowDestroy = 1_000;
    try {
      const app = await start(AppModule, {}, (app) =>
        app.use(new TimeoutMiddleware({ timeout: 100 })),
      );
      const began = Date.now();
      expect((await request(app, "GET", "/slow")).status).toBe(408);
      expect(Date.now() - began).toBeLessThan(700);
    } finally {
      slowDestroy = 0;
    }
  });

  it("keeps what the handler set in its fiber refs (a pre-response handler), first or behind the logger", async () => {
    for (const order of [
      [new TimeoutMiddleware({ timeout: 1_000 }), LoggerMiddleware],
      [LoggerMiddleware, new TimeoutMiddleware({ timeout: 1_000 })],
    ]) {
      const app = await start(AppModule, {}, (app) => app.use(...order));
      expect((await request(app, "GET", "/pre-response")).headers.get("x-pre")).toBe("yes");
    }
  });

  it("behind middleware that is not decorating (the logger), answers through it", async () => {
    const { logger, lines } = capturingLogger();
    const app = await start(AppModule, { logger }, (app) =>
      app.use(LoggerMiddleware, new TimeoutMiddleware({ timeout: 100 })),
    );
    expect((await request(app, "GET", "/slow")).status).toBe(408);
    const logged = lines.find((line) => line.message === "HTTP request");
    expect(logged?.annotations).toMatchObject({ path: "/slow", status: 408 });
  });

  it("defaults to 30 000 ms and refuses a non-positive timeout, or one over what timers allow", async () => {
    expect(DEFAULT_TIMEOUT).toBe(30_000);
    const app = await start(AppModule, {}, (app) => app.use(TimeoutMiddleware));
    expect((await request(app, "GET", "/fast")).status).toBe(200);
    const broken = new StrataApp(AppModule).use(new TimeoutMiddleware({ timeout: 0 }));
    await expect(broken.listen(0)).rejects.toThrow(/not a positive number of ms/);
    await broken.close();
    const endless = new StrataApp(AppModule).use(new TimeoutMiddleware({ timeout: 2 ** 31 }));
    await expect(endless.listen(0)).rejects.toThrow(/over the 2147483647 ms timers allow/);
    await endless.close();
  });
});

describe("Timeout (Effect face), off the fast path and around uninterruptible routes", () => {
  const timeout = Effect.runSync(Timeout.make({ timeout: 100 }));
  // Real timers: these layers are built on the test clock.
  const wait = (ms: number) =>
    Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)));
  const slowRoute = HttpLayerRouter.add(
    "GET",
    "/slow",
    wait(3_000).pipe(Effect.as(HttpServerResponse.text("late"))),
  );
  const uninterruptible = HttpLayerRouter.add(
    "GET",
    "/uninterruptible",
    wait(300).pipe(Effect.as(HttpServerResponse.text("late"))),
    { uninterruptible: true },
  );
  layer(
    serveTest(Layer.mergeAll(slowRoute, uninterruptible, HttpLayerRouter.cors()), {
      middleware: Middleware.compose(timeout),
    }),
  )("with platform router middleware (the generic path)", (it) => {
    it.effect("answers 408 in time", () =>
      Effect.gen(function* () {
        const began = Date.now();
        const response = yield* HttpClient.get("/slow");
        expect(response.status).toBe(408);
        expect(Date.now() - began).toBeLessThan(1_000);
      }),
    );
  });
  layer(
    serveTest(Layer.mergeAll(slowRoute, uninterruptible), {
      middleware: Middleware.compose(timeout),
    }),
  )("on the fast path", (it) => {
    it.effect("lets an uninterruptible handler finish, then answers 408", () =>
      Effect.gen(function* () {
        const began = Date.now();
        const response = yield* HttpClient.get("/uninterruptible");
        expect(response.status).toBe(408);
        expect(Date.now() - began).toBeGreaterThanOrEqual(290);
      }),
    );
  });
  layer(serveTest(slowRoute, { middleware: Middleware.compose(timeout), tracing: true }))(
    "with tracing (the generic path)",
    (it) => {
      it.effect("answers 408 in time", () =>
        Effect.gen(function* () {
          expect((yield* HttpClient.get("/slow")).status).toBe(408);
        }),
      );
    },
  );
});

describe("Timeout (Effect face)", () => {
  let finalized = false;
  const routes = HttpLayerRouter.add(
    "GET",
    "/never",
    Effect.never.pipe(
      Effect.as(HttpServerResponse.text("never")),
      Effect.ensuring(
        Effect.sync(() => {
          finalized = true;
        }),
      ),
    ),
  );
  layer(serveTest(routes, { middleware: Effect.runSync(Timeout.make({ timeout: 50 })) }))(
    "Timeout.make",
    (it) => {
      it.effect("interrupts the handler and answers 408", () =>
        Effect.gen(function* () {
          const response = yield* HttpClient.get("/never");
          expect(response.status).toBe(408);
          expect(yield* response.json).toEqual({ statusCode: 408, message: "Request Timeout" });
          expect(finalized).toBe(true);
        }),
      );
    },
  );
});
