import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { expect as effectExpect, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import {
  type ArgumentsHost,
  BadRequestError,
  Catch,
  ConflictError,
  Controller,
  type ExceptionFilter,
  ForbiddenError,
  Get,
  HttpError,
  Injectable,
  Module,
  NotFoundError,
  Param,
  ParseIntPipe,
  UseFilters,
  UseGuards,
} from "../../src/index.js";
import { request, serveTest } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

/** Writes `{ by, statusCode, message }` with the error's status. */
const writer = (by: string) => (exception: HttpError, host: ArgumentsHost) => {
  const response = host.switchToHttp().getResponse();
  const request = host.switchToHttp().getRequest();
  response
    .status(exception.statusCode)
    .setHeader("x-filter", by)
    .json({ by, statusCode: exception.statusCode, message: exception.message, url: request.url });
};

@Catch(NotFoundError)
class MethodNotFound implements ExceptionFilter<NotFoundError> {
  catch(exception: NotFoundError, host: ArgumentsHost) {
    writer("method")(exception, host);
  }
}

@Catch(NotFoundError, ConflictError)
class ControllerFilter implements ExceptionFilter<HttpError> {
  catch(exception: HttpError, host: ArgumentsHost) {
    writer("controller")(exception, host);
  }
}

@Injectable()
class Clock {
  now() {
    return "2026-01-01T00:00:00.000Z";
  }
}

/** Catches everything (no @Catch), through DI; asynchronous. */
@Injectable()
class GlobalFilter implements ExceptionFilter {
  constructor(private readonly clock: Clock) {}
  async catch(exception: unknown, host: ArgumentsHost) {
    await Promise.resolve();
    const status = exception instanceof HttpError ? exception.statusCode : 500;
    host
      .switchToHttp()
      .getResponse()
      .status(status)
      .json({
        by: "global",
        statusCode: status,
        kind: exception instanceof Error ? exception.constructor.name : typeof exception,
        at: this.clock.now(),
      });
  }
}

@Catch(BadRequestError)
class SilentFilter implements ExceptionFilter<BadRequestError> {
  catch() {
    // sends nothing: the standard error response answers
  }
}

@Catch(ForbiddenError)
class ThrowingFilter implements ExceptionFilter<ForbiddenError> {
  catch(): void {
    throw new ConflictError("Filter gave up");
  }
}

@Catch()
class EffectFilter implements ExceptionFilter {
  catch(_exception: unknown, host: ArgumentsHost) {
    return Effect.sync(() => host.switchToHttp().getResponse().status(418).send("teapot"));
  }
}

@Controller("f")
@UseFilters(ControllerFilter)
class FilteredController {
  @Get("method-wins")
  @UseFilters(MethodNotFound)
  methodWins() {
    throw new NotFoundError("gone");
  }

  @Get("controller-wins")
  @UseFilters(MethodNotFound)
  controllerWins() {
    throw new ConflictError("taken");
  }

  @Get("global-wins")
  @UseFilters(MethodNotFound)
  globalWins() {
    throw new ForbiddenError();
  }

  @Get("defect")
  defect() {
    throw new TypeError("boom");
  }

  @Get("die")
  die() {
    return Effect.die(new RangeError("defect"));
  }

  @Get("effect-failure")
  effectFailure() {
    return Effect.fail(new NotFoundError("effect gone"));
  }

  @Get("silent/:id")
  @UseFilters(SilentFilter)
  silent(@Param("id", ParseIntPipe) id: number) {
    return { id };
  }

  @Get("throwing")
  @UseFilters(ThrowingFilter)
  @UseGuards({ canActivate: () => false })
  throwing() {
    return "never";
  }

  @Get("effect-filter")
  @UseFilters(new EffectFilter())
  effectFilter() {
    throw new Error("any");
  }
}

@Controller("unfiltered")
class UnfilteredController {
  @Get()
  unfiltered() {
    throw new NotFoundError("plain");
  }
}

@Module({ controllers: [FilteredController], providers: [Clock] })
class FilteredModule {}

@Module({ controllers: [UnfilteredController] })
class UnfilteredModule {}

describe("exception filters", () => {
  const app = listeningApp(FilteredModule, { globalFilters: [GlobalFilter] });
  const plain = listeningApp(UnfilteredModule);

  it("lets the method's filter handle what it catches", async () => {
    const res = await request(app, "GET", "/f/method-wins");
    expect(res.status).toBe(404);
    expect(res.headers.get("x-filter")).toBe("method");
    expect(res.body).toEqual({
      by: "method",
      statusCode: 404,
      message: "gone",
      url: "/f/method-wins",
    });
  });

  it("falls back to the controller's filter when the method's does not catch the type", async () => {
    expect((await request(app, "GET", "/f/controller-wins")).body).toMatchObject({
      by: "controller",
      statusCode: 409,
      message: "taken",
    });
  });

  it("falls back to the global filter last", async () => {
    expect(await request(app, "GET", "/f/global-wins")).toMatchObject({
      status: 403,
      body: {
        by: "global",
        statusCode: 403,
        kind: "ForbiddenError",
        at: "2026-01-01T00:00:00.000Z",
      },
    });
  });

  it("hands any failure to a filter without @Catch, unexpected errors and defects included", async () => {
    expect(await request(app, "GET", "/f/defect")).toMatchObject({
      status: 500,
      body: { by: "global", statusCode: 500, kind: "TypeError" },
    });
    expect(await request(app, "GET", "/f/die")).toMatchObject({
      status: 500,
      body: { by: "global", statusCode: 500, kind: "RangeError" },
    });
  });

  it("catches Effect failures like thrown errors", async () => {
    expect((await request(app, "GET", "/f/effect-failure")).body).toMatchObject({
      by: "controller",
      message: "effect gone",
    });
  });

  it("answers normally when nothing fails, and with the standard shape when a filter sends nothing", async () => {
    expect((await request(app, "GET", "/f/silent/3")).body).toEqual({ id: 3 });
    expect(await request(app, "GET", "/f/silent/x")).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: "Validation failed (numeric string is expected)" },
    });
  });

  it("filters guard failures; a throwing filter answers with what it threw", async () => {
    expect(await request(app, "GET", "/f/throwing")).toMatchObject({
      status: 409,
      body: { statusCode: 409, message: "Filter gave up" },
    });
  });

  it("accepts a filter answering with an Effect", async () => {
    const res = await request(app, "GET", "/f/effect-filter");
    expect(res.status).toBe(418);
    expect(res.text).toBe("teapot");
  });

  it("leaves routes without filters to the standard error shape", async () => {
    expect(await request(plain, "GET", "/unfiltered")).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: "plain" },
    });
  });
});

// The Effect face: a filter is a recovery of tagged failures around the handler.
const Gone = HttpLayerRouter.add(
  "GET",
  "/gone/:id",
  Effect.gen(function* () {
    const { id } = yield* HttpLayerRouter.params;
    if (id === "0") return HttpServerResponse.unsafeJson({ id });
    return yield* new NotFoundError(`No item ${id}`);
  }).pipe(
    Effect.catchTag("NotFoundError", (error) =>
      HttpServerResponse.json({ error: "not-found", detail: error.message }, { status: 404 }),
    ),
  ),
);

layer(serveTest(Gone))("exception filters, Effect face", (it) => {
  it.effect("answers a tagged failure with the recovery's response", () =>
    Effect.gen(function* () {
      const response = yield* HttpClient.get("/gone/7");
      effectExpect(response.status).toBe(404);
      effectExpect(yield* response.json).toEqual({ error: "not-found", detail: "No item 7" });
      effectExpect(yield* (yield* HttpClient.get("/gone/0")).json).toEqual({ id: "0" });
    }),
  );
});
