import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import {
  type CallHandler,
  Controller,
  type ExecutionContext,
  Get,
  HttpError,
  Injectable,
  Interceptor,
  Module,
  NotFoundError,
  Param,
  ParseIntPipe,
  PipeTransform,
  UseInterceptors,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

const log: Array<string> = [];

/** Logs around the rest of the pipeline. */
class Trace extends Interceptor {
  constructor(private readonly name: string) {
    super();
  }
  async intercept(_context: ExecutionContext, next: CallHandler) {
    log.push(`${this.name}:before`);
    const result = await next();
    log.push(`${this.name}:after`);
    return result;
  }
}

/** Wraps the result, through an injected service. */
@Injectable()
class Wrapping {
  wrap(data: unknown) {
    return { data };
  }
}

@Injectable()
class Envelope extends Interceptor {
  constructor(private readonly wrapping: Wrapping) {
    super();
  }
  async intercept(_context: ExecutionContext, next: CallHandler) {
    return this.wrapping.wrap(await next());
  }
}

/** Times the handler into a response header. */
class Timing extends Interceptor {
  async intercept(context: ExecutionContext, next: CallHandler) {
    const started = performance.now();
    const result = await next();
    context
      .switchToHttp()
      .getResponse()
      .setHeader("x-elapsed-ms", Math.round(performance.now() - started));
    return result;
  }
}

/** Answers from a cache without calling the handler. */
class Cached extends Interceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    return context.query.cached === "1" ? { cached: true } : next();
  }
}

/** Maps failures to a value, as an Effect. */
class Recover extends Interceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return Effect.catchAll(Effect.tryPromise({ try: next, catch: (error) => error }), (error) =>
      Effect.succeed({
        recovered: error instanceof HttpError ? error.statusCode : String(error),
      }),
    );
  }
}

class Slow extends PipeTransform {
  async transform(value: unknown) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return value;
  }
}

@Controller("i")
@UseInterceptors(new Trace("controller"))
class InterceptedController {
  @Get("order")
  @UseInterceptors(new Trace("method"), new Trace("method-2"))
  order() {
    log.push("handler");
    return { ok: true };
  }

  @Get("envelope/:id")
  @UseInterceptors(Envelope)
  envelope(@Param("id", ParseIntPipe) id: number) {
    return { id };
  }

  @Get("envelope-async/:id")
  @UseInterceptors(Envelope)
  envelopeAsync(@Param("id", Slow) id: string) {
    return Effect.succeed({ id });
  }

  @Get("timed")
  @UseInterceptors(Timing)
  async timed() {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return "done";
  }

  @Get("cached")
  @UseInterceptors(Cached)
  cached() {
    return { cached: false };
  }

  @Get("missing")
  missing() {
    throw new NotFoundError("Nothing here");
  }

  @Get("recover/:kind")
  @UseInterceptors(Recover)
  recover(@Param("kind") kind: string) {
    if (kind === "throw") throw new NotFoundError();
    if (kind === "effect") return Effect.fail(new NotFoundError());
    return { kind };
  }
}

@Controller("plain")
class PlainController {
  @Get()
  plain() {
    log.push("plain");
    return "plain";
  }
}

@Module({ controllers: [InterceptedController, PlainController], providers: [Wrapping] })
class AppModule {}

describe("interceptors", () => {
  const app = listeningApp(AppModule, { globalInterceptors: [new Trace("global")] });

  it("nests global, controller, then method interceptors, the first listed outermost", async () => {
    log.length = 0;
    const res = await request(app, "GET", "/i/order");
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    expect(log).toEqual([
      "global:before",
      "controller:before",
      "method:before",
      "method-2:before",
      "handler",
      "method-2:after",
      "method:after",
      "controller:after",
      "global:after",
    ]);
  });

  it("maps the result (interceptor created through DI)", async () => {
    expect((await request(app, "GET", "/i/envelope/4")).body).toEqual({ data: { id: 4 } });
    expect((await request(app, "GET", "/i/envelope-async/x")).body).toEqual({
      data: { id: "x" },
    });
  });

  it("sees pipe failures as a rejected next()", async () => {
    expect(await request(app, "GET", "/i/envelope/x")).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: "Validation failed (numeric string is expected)" },
    });
  });

  it("times the handler and sets a header through the response", async () => {
    const res = await request(app, "GET", "/i/timed");
    expect(res.text).toBe("done");
    expect(Number(res.headers.get("x-elapsed-ms"))).toBeGreaterThanOrEqual(15);
  });

  it("replaces the result without calling the handler", async () => {
    expect((await request(app, "GET", "/i/cached?cached=1")).body).toEqual({ cached: true });
    expect((await request(app, "GET", "/i/cached")).body).toEqual({ cached: false });
  });

  it("lets failures through, or maps them (returning an Effect)", async () => {
    expect(await request(app, "GET", "/i/missing")).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: "Nothing here" },
    });
    expect((await request(app, "GET", "/i/recover/throw")).body).toEqual({ recovered: 404 });
    expect((await request(app, "GET", "/i/recover/effect")).body).toEqual({ recovered: 404 });
    expect((await request(app, "GET", "/i/recover/fine")).body).toEqual({ kind: "fine" });
  });

  it("wraps every route in the global interceptors", async () => {
    log.length = 0;
    expect((await request(app, "GET", "/plain")).text).toBe("plain");
    expect(log).toEqual(["global:before", "plain", "global:after"]);
  });
});
