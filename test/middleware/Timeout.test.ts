import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import {
  Controller,
  DEFAULT_TIMEOUT,
  Get,
  Injectable,
  Module,
  Scope,
  StrataApp,
  Timeout,
  TimeoutMiddleware,
} from "../../src/index.js";
import { request, serveTest } from "../../src/testing/index.js";
import { startedApps } from "../support/started.js";

const events: Array<string> = [];

@Injectable({ scope: Scope.REQUEST })
class RequestWork {
  onModuleDestroy() {
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

  it("defaults to 30 000 ms and refuses a non-positive timeout", async () => {
    expect(DEFAULT_TIMEOUT).toBe(30_000);
    const app = await start(AppModule, {}, (app) => app.use(TimeoutMiddleware));
    expect((await request(app, "GET", "/fast")).status).toBe(200);
    const broken = new StrataApp(AppModule).use(new TimeoutMiddleware({ timeout: 0 }));
    await expect(broken.listen(0)).rejects.toThrow(/not a positive number of ms/);
    await broken.close();
  });
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
