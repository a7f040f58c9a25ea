import { describe, expect, it } from "vitest";
import { Controller, Get, Injectable, Module, StrataApp } from "../../src/index.js";
import { request } from "../../src/testing/index.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("lifecycle hooks", () => {
  const log: Array<string> = [];

  @Injectable()
  class Config {
    ready = false;
    async onModuleInit() {
      await sleep(10);
      this.ready = true;
      log.push("init Config");
    }
    async onModuleDestroy() {
      await sleep(5);
      log.push("destroy Config");
    }
  }

  @Injectable()
  class Database {
    constructor(readonly config: Config) {}
    onModuleInit() {
      // Config's async init has completed before anything that depends on it starts.
      log.push(`init Database (config ready: ${this.config.ready})`);
    }
    onModuleDestroy() {
      log.push("destroy Database");
    }
  }

  @Module({ providers: [Database, Config], exports: [Database] })
  class DatabaseModule {}

  @Injectable()
  class UsersRepository {
    constructor(readonly db: Database) {}
    onModuleInit() {
      log.push("init UsersRepository");
    }
    onModuleDestroy() {
      log.push("destroy UsersRepository");
    }
  }

  @Controller("users")
  class UsersController {
    constructor(readonly users: UsersRepository) {}
    onModuleInit() {
      log.push("init UsersController");
    }
    onModuleDestroy() {
      log.push("destroy UsersController");
    }
    @Get()
    list() {
      return [];
    }
  }

  @Module({
    imports: [DatabaseModule],
    controllers: [UsersController],
    providers: [UsersRepository],
  })
  class AppModule {}

  it("runs onModuleInit in dependency order at startup and onModuleDestroy in reverse at close", async () => {
    log.length = 0;
    const app = new StrataApp(AppModule);
    await app.listen(0);
    expect(log).toEqual([
      "init Config",
      "init Database (config ready: true)",
      "init UsersRepository",
      "init UsersController",
    ]);
    expect((await request(app, "GET", "/users")).status).toBe(200);
    log.length = 0;
    await app.close();
    expect(log).toEqual([
      "destroy UsersController",
      "destroy UsersRepository",
      "destroy Database",
      "destroy Config",
    ]);
  });

  it("runs the hooks once per app, with init() alone", async () => {
    log.length = 0;
    const app = new StrataApp(AppModule);
    await app.init();
    await app.init();
    expect(log.filter((l) => l.startsWith("init"))).toHaveLength(4);
    await app.close();
    await app.close();
    expect(log.filter((l) => l.startsWith("destroy"))).toHaveLength(4);
  });

  it("stops answering after close", async () => {
    const app = new StrataApp(AppModule);
    await app.listen(0);
    const url = app.getUrl();
    await app.close();
    await expect(fetch(`${url}/users`)).rejects.toThrow();
  });
});
