import * as Logger from "effect/Logger";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BeforeApplicationShutdown,
  Controller,
  Get,
  Injectable,
  Module,
  NestFactory,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  type OnModuleInit,
  type StrataApp,
} from "../../src/index.js";

const log: Array<string> = [];

const hooks = (name: string) =>
  class
    implements
      OnModuleInit,
      OnApplicationBootstrap,
      OnModuleDestroy,
      BeforeApplicationShutdown,
      OnApplicationShutdown
  {
    onModuleInit() {
      log.push(`${name}.onModuleInit`);
    }
    async onApplicationBootstrap() {
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.push(`${name}.onApplicationBootstrap`);
    }
    onModuleDestroy() {
      log.push(`${name}.onModuleDestroy`);
    }
    beforeApplicationShutdown(signal?: string) {
      log.push(`${name}.beforeApplicationShutdown(${signal})`);
    }
    onApplicationShutdown(signal?: string) {
      log.push(`${name}.onApplicationShutdown(${signal})`);
    }
  };

@Injectable()
class CatsService extends hooks("CatsService") {}

@Controller("cats")
class CatsController extends hooks("CatsController") {
  constructor(readonly cats: CatsService) {
    super();
  }
  @Get()
  list() {
    return [];
  }
}

@Module({ controllers: [CatsController], providers: [CatsService], exports: [CatsService] })
class CatsModule {
  constructor(readonly cats: CatsService) {}
  onApplicationBootstrap() {
    log.push(`CatsModule.onApplicationBootstrap(${this.cats instanceof CatsService})`);
  }
  onApplicationShutdown(signal?: string) {
    log.push(`CatsModule.onApplicationShutdown(${signal})`);
  }
}

@Module({ imports: [CatsModule] })
class AppModule {}

let app: StrataApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  log.length = 0;
});

describe("application lifecycle hooks", () => {
  it("onApplicationBootstrap runs after every onModuleInit, at init (before listening), providers, controllers then modules", async () => {
    app = await NestFactory.create(AppModule);
    expect(log).toEqual(["CatsService.onModuleInit", "CatsController.onModuleInit"]);
    await app.init();
    expect(log).toEqual([
      "CatsService.onModuleInit",
      "CatsController.onModuleInit",
      "CatsService.onApplicationBootstrap",
      "CatsController.onApplicationBootstrap",
      "CatsModule.onApplicationBootstrap(true)",
    ]);
  });

  it("at close: onModuleDestroy, then beforeApplicationShutdown, then onApplicationShutdown, dependents first", async () => {
    app = await NestFactory.create(AppModule);
    await app.listen(0);
    const response = await fetch(`${app.getUrl()}/cats`);
    expect(response.status).toBe(200);
    log.length = 0;
    await app.close();
    app = undefined;
    expect(log).toEqual([
      "CatsController.onModuleDestroy",
      "CatsService.onModuleDestroy",
      "CatsController.beforeApplicationShutdown(undefined)",
      "CatsService.beforeApplicationShutdown(undefined)",
      "CatsModule.onApplicationShutdown(undefined)",
      "CatsController.onApplicationShutdown(undefined)",
      "CatsService.onApplicationShutdown(undefined)",
    ]);
  });

  it("a failing onApplicationBootstrap fails the start naming the provider, and releases what was built", async () => {
    @Injectable()
    class Broken {
      onApplicationBootstrap() {
        throw new Error("no database");
      }
      onApplicationShutdown() {
        log.push("Broken.onApplicationShutdown");
      }
    }
    @Module({ providers: [Broken] })
    class BrokenModule {}
    const broken = await NestFactory.create(BrokenModule);
    await expect(broken.init()).rejects.toThrow(
      "onApplicationBootstrap of Broken failed: no database",
    );
    expect(log).toEqual(["Broken.onApplicationShutdown"]);
  });

  it("a failing shutdown hook is logged and does not stop the others", async () => {
    @Injectable()
    class First {
      beforeApplicationShutdown() {
        throw new Error("boom");
      }
    }
    @Injectable()
    class Second {
      constructor(readonly first: First) {}
      onApplicationShutdown() {
        log.push("Second.onApplicationShutdown");
      }
    }
    @Module({ providers: [First, Second] })
    class Mod {}
    const logged: Array<string> = [];
    const logger = Logger.make(({ message }) => {
      logged.push(String(Array.isArray(message) ? message[0] : message));
    });
    const a = await NestFactory.create(Mod, { logger });
    await a.init();
    await a.close();
    expect(log).toEqual(["Second.onApplicationShutdown"]);
    expect(logged).toEqual(["beforeApplicationShutdown of First failed"]);
  });
});
