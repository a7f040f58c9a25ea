import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  Param,
  StartupError,
  type StrataApp,
} from "../../src/index.js";
import { request, Test, type TestingModule } from "../../src/testing/index.js";

const cleanup: Array<{ close(): Promise<void> }> = [];
const track = <T extends { close(): Promise<void> }>(value: T): T => {
  cleanup.push(value);
  return value;
};
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((c) => c.close()));
});

@Injectable()
class Clock {
  now() {
    return "real-time";
  }
}

@Injectable()
class UsersService {
  constructor(readonly clock: Clock) {}
  find(id: string) {
    return { id, name: "Real User", at: this.clock.now() };
  }
}

@Controller("users")
class UsersController {
  constructor(readonly users: UsersService) {}

  @Get(":id")
  find(@Param("id") id: string) {
    return this.users.find(id);
  }
}

const fakeUsers = {
  find: (id: string) => ({ id, name: "Fake User", at: "fake-time" }),
};

describe("Test.createTestingModule", () => {
  it("builds the listed controllers and providers", async () => {
    const module = track(
      await Test.createTestingModule({
        controllers: [UsersController],
        providers: [UsersService, Clock],
      }).compile(),
    );
    const controller = module.get(UsersController);
    expect(controller).toBeInstanceOf(UsersController);
    expect(controller.users).toBe(module.get(UsersService));
    expect(controller.find("1")).toEqual({ id: "1", name: "Real User", at: "real-time" });
  });

  it("overrideProvider(...).useValue replaces the provider for module.get", async () => {
    const module = track(
      await Test.createTestingModule({
        controllers: [UsersController],
        providers: [UsersService, Clock],
      })
        .overrideProvider(UsersService)
        .useValue(fakeUsers as unknown as UsersService)
        .compile(),
    );
    expect(module.get(UsersService)).toBe(fakeUsers);
    const controller = module.get(UsersController);
    expect(controller.users).toBe(fakeUsers);
    expect(controller.find("7")).toEqual({ id: "7", name: "Fake User", at: "fake-time" });
  });

  it("serves the override over real HTTP with createStrataApp", async () => {
    const module = track(
      await Test.createTestingModule({
        controllers: [UsersController],
        providers: [UsersService, Clock],
      })
        .overrideProvider(UsersService)
        .useValue(fakeUsers as unknown as UsersService)
        .compile(),
    );
    const app: StrataApp = track(module.createStrataApp());
    await app.listen(0);
    const response = await request(app, "GET", "/users/42");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: "42", name: "Fake User", at: "fake-time" });
  });

  it("overrides a nested dependency with useClass", async () => {
    @Injectable()
    class FrozenClock extends Clock {
      override now() {
        return "frozen";
      }
    }
    const module = track(
      await Test.createTestingModule({
        controllers: [UsersController],
        providers: [UsersService, Clock],
      })
        .overrideProvider(Clock)
        .useClass(FrozenClock)
        .compile(),
    );
    expect(module.get(Clock)).toBeInstanceOf(FrozenClock);
    expect(module.get(UsersService).clock).toBe(module.get(Clock));
    const app = track(module.createStrataApp());
    await app.listen(0);
    const response = await request(app, "GET", "/users/1");
    expect(response.body).toEqual({ id: "1", name: "Real User", at: "frozen" });
  });

  it("overrides with useFactory and inject", async () => {
    const PREFIX = Symbol("prefix");
    const module = track(
      await Test.createTestingModule({
        controllers: [UsersController],
        providers: [UsersService, Clock, { token: PREFIX, useValue: "T" }],
      })
        .overrideProvider(Clock)
        .useFactory({
          factory: (prefix: string) => ({ now: () => `${prefix}-factory` }),
          inject: [PREFIX],
        })
        .compile(),
    );
    expect(module.get(UsersService).find("x").at).toBe("T-factory");
    const app = track(module.createStrataApp());
    await app.listen(0);
    const response = await request(app, "GET", "/users/x");
    expect(response.body).toEqual({ id: "x", name: "Real User", at: "T-factory" });
  });

  it("overrides a provider declared inside an imported module", async () => {
    const STORE = "STORE";
    @Injectable()
    class Repo {
      constructor(@Inject(STORE) readonly store: { kind: string }) {}
    }
    @Module({
      providers: [Repo, { token: STORE, useValue: { kind: "postgres" } }],
      exports: [Repo],
    })
    class DataModule {}
    const module = track(
      await Test.createTestingModule({ imports: [DataModule] })
        .overrideProvider(STORE)
        .useValue({ kind: "memory" })
        .compile(),
    );
    expect(module.get(Repo).store).toEqual({ kind: "memory" });
  });

  it("lets createStrataApp take its own overrides on top", async () => {
    const module = track(
      await Test.createTestingModule({
        controllers: [UsersController],
        providers: [UsersService, Clock],
      }).compile(),
    );
    const app = track(
      module.createStrataApp({
        providerOverrides: [{ token: Clock, useValue: { now: () => "app-level" } }],
      }),
    );
    await app.listen(0);
    const response = await request(app, "GET", "/users/2");
    expect(response.body).toEqual({ id: "2", name: "Real User", at: "app-level" });
    expect(module.get(Clock).now()).toBe("real-time");
  });

  it("rejects compile() with a StartupError when a dependency is missing", async () => {
    const error = await Test.createTestingModule({ controllers: [UsersController] })
      .compile()
      .then(
        (module: TestingModule) => track(module),
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(StartupError);
    expect((error as StartupError).message).toContain(
      "parameter #0 (UsersService) of UsersController",
    );
  });

  it("runs lifecycle hooks on compile and close", async () => {
    const log: Array<string> = [];
    @Injectable()
    class Hooked {
      onModuleInit() {
        log.push("init");
      }
      onModuleDestroy() {
        log.push("destroy");
      }
    }
    const module = await Test.createTestingModule({ providers: [Hooked] }).compile();
    expect(log).toEqual(["init"]);
    await module.close();
    expect(log).toEqual(["init", "destroy"]);
  });
});
