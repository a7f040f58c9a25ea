import { describe, expect, it } from "vitest";
import { Controller, ExpressAdapter, Get, Module, NestFactory } from "../../src/index.js";
import { request, Test } from "../../src/testing/index.js";

@Controller("hello")
class HelloController {
  @Get()
  hello() {
    return "Hello world!";
  }
}

@Module({ controllers: [HelloController] })
class AppModule {}

/** What `express()` is to the adapter: Express 5 keeps its layers in `router.stack`. */
const expressApp = (layers: ReadonlyArray<string> = []) => ({
  router: { stack: layers.map((name) => ({ name })) },
});

/** Express 4: `_router`, with its own `query` and `expressInit` layers. */
const express4App = (layers: ReadonlyArray<string> = []) => ({
  _router: {
    stack: [{ name: "query" }, { name: "expressInit" }, ...layers.map((name) => ({ name }))],
  },
});

describe("ExpressAdapter", () => {
  it("is accepted for an Express app of no routes: Strata serves the app itself", async () => {
    const module = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const app = module.createNestApplication(new ExpressAdapter(expressApp()));
    const server = await app.listen(0, "127.0.0.1");
    try {
      expect(server).toBe(app.getHttpServer());
      expect(await request(app, "GET", "/hello")).toMatchObject({
        status: 200,
        text: "Hello world!",
      });
    } finally {
      await app.close();
    }
    const fromFactory = await NestFactory.create(AppModule, new ExpressAdapter(express4App()));
    await fromFactory.close();
  });

  it("fails the creation when the Express app has routes or middleware of its own", async () => {
    const module = await Test.createTestingModule({ imports: [AppModule] }).compile();
    expect(() => module.createNestApplication(new ExpressAdapter(expressApp(["bound"])))).toThrow(
      "createNestApplication: the Express app of this ExpressAdapter has 1 route(s) or middleware of its own, which would never run. Strata serves HTTP with its own engine",
    );
    await expect(
      NestFactory.create(AppModule, new ExpressAdapter(express4App(["jsonParser"]))),
    ).rejects.toThrow("NestFactory.create: the Express app of this ExpressAdapter has 1 route(s)");
    await module.close();
  });

  it("has no Express instance to give, saying what to use", async () => {
    expect(() => new ExpressAdapter(expressApp()).getInstance()).toThrow(
      "Use app.getHttpServer() (supertest) or app.listen(port)",
    );
    const app = await NestFactory.create(AppModule);
    try {
      expect(app.getHttpAdapter().getType()).toBe("strata");
      expect(app.getHttpAdapter().getHttpServer()).toBe(app.getHttpServer());
      expect(() => app.getHttpAdapter().getInstance()).toThrow(
        "app.getHttpAdapter().getInstance(): Strata serves HTTP with its own engine, not Express",
      );
    } finally {
      await app.close();
    }
  });

  it("refuses another adapter (Fastify's) at creation, naming it and what to use", async () => {
    /** What `@nestjs/platform-fastify`'s adapter looks like to Strata: an object of methods. */
    class FastifyAdapter {
      getInstance() {
        return {};
      }
      listen() {}
    }
    const module = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const adapter = new FastifyAdapter() as unknown as ExpressAdapter;
    expect(() => module.createNestApplication(adapter)).toThrow(
      "createNestApplication: FastifyAdapter is not supported: Strata serves HTTP with its own engine (no Fastify or other adapter). Leave the adapter out; test with app.getHttpServer() and supertest",
    );
    await expect(NestFactory.create(AppModule, adapter)).rejects.toThrow(
      "NestFactory.create: FastifyAdapter is not supported",
    );
    await module.close();
  });

  it("listen(port, callback) runs the callback once listening", async () => {
    const app = await NestFactory.create(AppModule);
    let url = "";
    await app.listen(0, () => {
      url = app.getUrl();
    });
    try {
      // node's default host (::) is named [::1], as NestJS names it (127.0.0.1 without IPv6).
      expect(url).toMatch(/^http:\/\/(\[::1\]|127\.0\.0\.1):\d+$/);
      expect((await request(app, "GET", "/hello")).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe("listen failures", () => {
  it("reject with the port's own error and code, as NestJS's", async () => {
    const first = await NestFactory.create(AppModule);
    await first.listen(0, "127.0.0.1");
    const second = await NestFactory.create(AppModule);
    try {
      const port = Number(new URL(first.getUrl()).port);
      await expect(second.listen(port, "127.0.0.1")).rejects.toMatchObject({
        code: "EADDRINUSE",
        message: expect.stringContaining("EADDRINUSE"),
      });
      // Still answering: the failed listen took nothing from the first app.
      expect((await request(first, "GET", "/hello")).status).toBe(200);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
