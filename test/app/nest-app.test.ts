import { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  Controller,
  Get,
  Injectable,
  Ip,
  Logger,
  Module,
  NestFactory,
  Param,
  type PipeTransform,
  Query,
  Request,
  type RequestContext,
  RequestMethod,
  type StrataApp,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";

const log: Array<string> = [];

@Injectable()
class CatsService {
  onModuleInit() {
    log.push("init");
  }
  onModuleDestroy() {
    log.push("destroy");
  }
  greet(name: string) {
    return `meow, ${name}`;
  }
}

@Controller("cats")
class CatsController {
  constructor(private readonly cats: CatsService) {}
  @Get()
  greet(@Query("name") name: string, @Request() req: RequestContext) {
    return { greeting: this.cats.greet(name), method: req.method };
  }
}

@Module({ controllers: [CatsController], providers: [CatsService] })
class AppModule {}

class Trim implements PipeTransform {
  transform(value: unknown) {
    return typeof value === "string" ? value.trim() : value;
  }
}

let app: StrataApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  log.length = 0;
});

describe("NestFactory.create", () => {
  it("gives an app whose providers are built (get works at once), configurable, then listening", async () => {
    app = await NestFactory.create(AppModule);
    expect(app.get(CatsService).greet("Tom")).toBe("meow, Tom");
    expect(log).toEqual(["init"]);
    app.useGlobalPipes(new Trim());
    await app.listen(0);
    const response = await request(app, "GET", "/cats?name=%20Tom%20");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ greeting: "meow, Tom", method: "GET" });
    await app.close();
    expect(log).toEqual(["init", "destroy"]);
  });
});

describe("app.getHttpServer()", () => {
  it("is a node http.Server, not listening, that serves the app once its user listens it (as supertest does); close() closes it", async () => {
    app = await NestFactory.create(AppModule);
    await app.init();
    const server = app.getHttpServer();
    expect(server).toBeInstanceOf(Server);
    expect(server.listening).toBe(false);
    expect(app.getHttpServer()).toBe(server);
    server.listen(0);
    const address = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${address.port}/cats?name=Tom`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ greeting: "meow, Tom", method: "GET" });
    const missing = await fetch(`http://127.0.0.1:${address.port}/nope`);
    expect(missing.status).toBe(404);
    await app.close();
    app = undefined;
    expect(server.listening).toBe(false);
    expect(log).toEqual(["init", "destroy"]);
  });
});

describe("Logger", () => {
  it("writes through Effect's logger, the context as an annotation; a last string overrides it; overrideLogger replaces or filters", () => {
    const lines: Array<string> = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    try {
      const logger = new Logger("CatsService");
      logger.log("found a cat");
      logger.warn("odd cat", "Other");
      Logger.error("static failure");
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/level=INFO .*message="found a cat" context=CatsService/);
      expect(lines[1]).toMatch(/level=WARN .*message="odd cat" context=Other/);
      expect(lines[2]).toMatch(/level=ERROR .*message="static failure"/);
      const seen: Array<unknown> = [];
      Logger.overrideLogger({
        log: (...args: ReadonlyArray<unknown>) => seen.push(["log", ...args]),
        error: (...args: ReadonlyArray<unknown>) => seen.push(["error", ...args]),
        warn: (...args: ReadonlyArray<unknown>) => seen.push(["warn", ...args]),
      });
      logger.log("replaced");
      expect(seen).toEqual([["log", "replaced", "CatsService"]]);
      Logger.overrideLogger(true);
      Logger.overrideLogger(["error"]);
      logger.log("hidden");
      expect(lines).toHaveLength(3);
    } finally {
      Logger.overrideLogger(true);
      spy.mockRestore();
    }
  });
});

describe("enableCors() and enableShutdownHooks()", () => {
  it("enableCors(options) answers CORS with Strata's CorsMiddleware", async () => {
    app = await NestFactory.create(AppModule);
    app.enableCors({ origin: "https://app.example" });
    await app.listen(0);
    const allowed = await fetch(`${app.getUrl()}/cats?name=Tom`, {
      headers: { origin: "https://app.example" },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const other = await fetch(`${app.getUrl()}/cats?name=Tom`, {
      headers: { origin: "https://evil.example" },
    });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("enableShutdownHooks(signals) listens to those signals while the app listens", async () => {
    const before = process.listenerCount("SIGUSR2");
    app = await NestFactory.create(AppModule);
    app.enableShutdownHooks(["SIGUSR2"]);
    await app.listen(0);
    expect(process.listenerCount("SIGUSR2")).toBe(before + 1);
    await app.close();
    app = undefined;
    expect(process.listenerCount("SIGUSR2")).toBe(before);
  });
});

describe("@Ip()", () => {
  it("is the client's address (the socket's peer); X-Forwarded-For is not believed", async () => {
    @Controller("whoami")
    class WhoAmI {
      @Get()
      ip(@Ip() ip: string) {
        return { ip };
      }
    }
    @Module({ controllers: [WhoAmI] })
    class IpModule {}
    app = await NestFactory.create(IpModule);
    await app.listen(0, "127.0.0.1");
    const response = await fetch(`${app.getUrl()}/whoami`, {
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ip: "127.0.0.1" });
  });
});

describe("setGlobalPrefix()", () => {
  it("puts every controller route under the prefix, but the excluded ones", async () => {
    @Controller("dogs")
    class DogsController {
      @Get()
      list() {
        return ["Rex"];
      }
      @Get("ping")
      ping() {
        return "pong";
      }
      @Get(":id")
      one(@Param("id") id: string) {
        return { id };
      }
    }
    @Module({ controllers: [DogsController] })
    class DogsModule {}
    app = await NestFactory.create(DogsModule);
    app.setGlobalPrefix("/api/", { exclude: [{ path: "dogs/ping", method: RequestMethod.GET }] });
    await app.listen(0);
    const url = app.getUrl();
    expect((await fetch(`${url}/api/dogs`)).status).toBe(200);
    expect(await (await fetch(`${url}/api/dogs/7`)).json()).toEqual({ id: "7" });
    expect((await fetch(`${url}/dogs`)).status).toBe(404);
    expect(await (await fetch(`${url}/dogs/ping`)).text()).toBe("pong");
    expect((await fetch(`${url}/api/dogs/ping`)).status).toBe(200);
    expect(app.routes.map((r) => r.path).sort()).toEqual([
      "/api/dogs",
      "/api/dogs/:id",
      "/dogs/ping",
    ]);
    expect(() => app?.setGlobalPrefix("v2")).toThrow("before init() or listen()");
  });
});
