import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  ForbiddenException,
  Get,
  Injectable,
  type MiddlewareConsumer,
  Module,
  NestFactory,
  type NestMiddleware,
  type NestMiddlewareRequest,
  type NestMiddlewareResponse,
  Post,
  RequestMethod,
  type StrataApp,
} from "../../src/index.js";

const log: Array<string> = [];

@Injectable()
class Clock {
  now() {
    return "t";
  }
}

@Injectable()
class LoggerMiddleware implements NestMiddleware {
  constructor(private readonly clock: Clock) {}
  use(req: NestMiddlewareRequest, res: NestMiddlewareResponse, next: () => void) {
    res.on("finish", () =>
      log.push(`${req.method} ${req.path} ${res.statusCode} ${this.clock.now()}`),
    );
    res.setHeader("x-logged", "yes");
    next();
  }
}

const denyDelete = (
  req: NestMiddlewareRequest,
  _res: NestMiddlewareResponse,
  next: (e?: unknown) => void,
) => {
  if (req.get("X-Deny") === "1") next(new ForbiddenException("denied by middleware"));
  else next();
};

@Controller("cats")
class CatsController {
  @Get()
  list() {
    return ["Tom"];
  }
  @Get("health")
  health() {
    return "ok";
  }
  @Get(":id")
  one() {
    return "one";
  }
  @Post()
  create() {
    return "created";
  }
}

@Controller("dogs")
class DogsController {
  @Get()
  list() {
    return ["Rex"];
  }
  @Post()
  create() {
    return "created";
  }
}

@Module({ controllers: [CatsController, DogsController], providers: [Clock] })
class AppModule {
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(LoggerMiddleware)
      .exclude("cats/health", { path: "cats/:id", method: RequestMethod.POST })
      .forRoutes(CatsController)
      .apply(denyDelete)
      .forRoutes({ path: "dogs", method: RequestMethod.POST });
  }
}

let app: StrataApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  log.length = 0;
});

const start = async () => {
  app = await NestFactory.create(AppModule);
  await app.listen(0);
  return app.getUrl();
};

describe("MiddlewareConsumer in configure(consumer)", () => {
  it("a class middleware (injected) runs for its controller's routes, not for excluded ones nor other controllers", async () => {
    const url = await start();
    const listed = await fetch(`${url}/cats`);
    expect(listed.status).toBe(200);
    expect(listed.headers.get("x-logged")).toBe("yes");
    const one = await fetch(`${url}/cats/7`);
    expect(one.headers.get("x-logged")).toBe("yes");
    const excluded = await fetch(`${url}/cats/health`);
    expect(await excluded.text()).toBe("ok");
    expect(excluded.headers.get("x-logged")).toBeNull();
    const dogs = await fetch(`${url}/dogs`);
    expect(dogs.headers.get("x-logged")).toBeNull();
    expect(log).toEqual(["GET /cats 200 t", "GET /cats/7 200 t"]);
  });

  it("a functional middleware limited to one method; next(error) answers with that error", async () => {
    const url = await start();
    const get = await fetch(`${url}/dogs`, { headers: { "x-deny": "1" } });
    expect(get.status).toBe(200);
    const denied = await fetch(`${url}/dogs`, { method: "POST", headers: { "x-deny": "1" } });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({
      statusCode: 403,
      message: "denied by middleware",
      error: "Forbidden",
    });
    const allowed = await fetch(`${url}/dogs`, { method: "POST" });
    expect(allowed.status).toBe(201);
  });

  it("a configure() that throws fails the start naming the module", async () => {
    @Module({})
    class Broken {
      configure() {
        throw new Error("bad config");
      }
    }
    await expect(NestFactory.create(Broken)).rejects.toThrow(
      "Broken.configure(consumer) failed: bad config",
    );
  });
});
