import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  Injectable,
  Module,
  type OnModuleDestroy,
  type OnModuleInit,
  StartupError,
  StrataApp,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";

const log: Array<string> = [];
let current: StrataApp | undefined;

/** Whether the app under test is listening, seen from inside a hook. */
const listening = () => {
  try {
    current?.getUrl();
    return true;
  } catch {
    return false;
  }
};

@Injectable()
class Config implements OnModuleInit, OnModuleDestroy {
  async onModuleInit() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    log.push(`init Config (listening: ${listening()})`);
  }
  onModuleDestroy() {
    log.push("destroy Config");
  }
}

@Injectable()
class Database implements OnModuleInit, OnModuleDestroy {
  constructor(readonly config: Config) {}
  onModuleInit() {
    log.push(`init Database (listening: ${listening()})`);
  }
  async onModuleDestroy() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    log.push("destroy Database");
  }
}

@Injectable()
class Cache implements OnModuleInit, OnModuleDestroy {
  constructor(readonly db: Database) {}
  onModuleInit() {
    log.push("init Cache");
  }
  onModuleDestroy() {
    log.push("destroy Cache");
  }
}

@Controller("items")
class ItemsController {
  constructor(readonly cache: Cache) {}
  @Get()
  list() {
    return [];
  }
}

@Module({ controllers: [ItemsController], providers: [Cache, Database, Config] })
class AppModule {}

@Injectable()
class BrokenQueue implements OnModuleInit, OnModuleDestroy {
  constructor(readonly db: Database) {}
  onModuleInit(): Promise<void> {
    log.push("init BrokenQueue");
    return Promise.reject(new Error("queue unreachable"));
  }
  onModuleDestroy() {
    log.push("destroy BrokenQueue");
  }
}

@Injectable()
class AfterQueue implements OnModuleInit, OnModuleDestroy {
  constructor(readonly queue: BrokenQueue) {}
  onModuleInit() {
    log.push("init AfterQueue");
  }
  onModuleDestroy() {
    log.push("destroy AfterQueue");
  }
}

@Module({ providers: [AfterQueue, BrokenQueue, Database, Config] })
class BrokenModule {}

describe("lifecycle hooks", () => {
  afterEach(async () => {
    await current?.close();
    current = undefined;
    log.length = 0;
  });

  it("runs onModuleInit in dependency order before the port opens, onModuleDestroy in reverse", async () => {
    current = new StrataApp(AppModule, { health: false });
    await current.listen(0);
    expect(log).toEqual([
      "init Config (listening: false)",
      "init Database (listening: false)",
      "init Cache",
    ]);
    expect((await request(current, "GET", "/items")).status).toBe(200);
    log.length = 0;
    await current.close();
    expect(log).toEqual(["destroy Cache", "destroy Database", "destroy Config"]);
  });

  it("aborts startup on a failing onModuleInit, naming the provider, after running the destroys due", async () => {
    current = new StrataApp(BrokenModule);
    const failure = await current.listen(0).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StartupError);
    expect(String((failure as StartupError).message)).toMatch(
      /^onModuleInit of BrokenQueue in BrokenModule failed: queue unreachable$/,
    );
    expect(log).toEqual([
      "init Config (listening: false)",
      "init Database (listening: false)",
      "init BrokenQueue",
      // Only what was initialized is destroyed, in reverse.
      "destroy Database",
      "destroy Config",
    ]);
    expect(() => current?.getUrl()).toThrow(/app.listen\(\) needs to be called before/);
  });
});
