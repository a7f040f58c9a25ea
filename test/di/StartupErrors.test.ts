import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  StartupError,
  StrataApp,
} from "../../src/index.js";
import { freePort } from "../support/freePort.js";

const apps: Array<StrataApp> = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** Listening on `port` succeeds, i.e. nothing else holds it. */
const canBind = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server: Server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

/** Starts `module` on a known port, expects a StartupError, and checks nothing is left on the port. */
const failedStart = async (module: new () => unknown): Promise<StartupError> => {
  const port = await freePort();
  const app = new StrataApp(module);
  apps.push(app);
  const error = await app.listen(port, "127.0.0.1").then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StartupError);
  expect(() => app.getUrl()).toThrow("app.listen() needs to be called before calling app.getUrl()");
  expect(await canBind(port)).toBe(true);
  return error as StartupError;
};

/** `init()` rejects with a StartupError too. */
const failedInit = async (module: new () => unknown): Promise<StartupError> => {
  const app = new StrataApp(module);
  apps.push(app);
  const error = await app.init().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StartupError);
  return error as StartupError;
};

describe("startup errors", () => {
  it("names the class, the parameter index and the module path of a missing token", async () => {
    @Injectable()
    class Present {}
    @Injectable()
    class Missing {}
    @Injectable()
    class NeedsMissing {
      constructor(
        readonly present: Present,
        readonly missing: Missing,
      ) {}
    }
    @Module({ providers: [Present, NeedsMissing], exports: [NeedsMissing] })
    class FeatureModule {}
    @Module({ imports: [FeatureModule] })
    class AppModule {}

    for (const error of [await failedStart(AppModule), await failedInit(AppModule)]) {
      expect(error._tag).toBe("StartupError");
      expect(error.message).toContain("parameter #1 (Missing) of NeedsMissing");
      expect(error.message).toContain("AppModule > FeatureModule");
      expect(error.message).not.toContain("parameter #0");
    }
  });

  it("names a missing string or symbol token", async () => {
    @Injectable()
    class NeedsToken {
      constructor(
        @Inject("DB_URL") readonly url: string,
        @Inject(Symbol.for("cache")) readonly cache: unknown,
      ) {}
    }
    @Module({ providers: [NeedsToken, { token: "DB_URL", useValue: "x" }] })
    class AppModule {}

    const error = await failedStart(AppModule);
    expect(error.message).toContain("parameter #1 (Symbol(cache)) of NeedsToken in AppModule");
  });

  it("builds a class no decorator touched without arguments, as NestJS does", async () => {
    class Dependency {}
    // No decorator and no @Inject: the compiler emits no `design:paramtypes`, and NestJS
    // constructs it with no arguments (as a class provider and as `useClass`).
    class Undecorated {
      constructor(readonly dependency: Dependency) {}
    }
    class UndecoratedImpl {
      constructor(readonly dependency: Dependency) {}
    }
    @Module({
      providers: [Dependency, Undecorated, { provide: "IMPL", useClass: UndecoratedImpl }],
    })
    class AppModule {}

    const app = new StrataApp(AppModule);
    await app.init();
    try {
      expect(app.get(Undecorated)).toBeInstanceOf(Undecorated);
      expect(app.get(Undecorated).dependency).toBeUndefined();
      expect(app.get<UndecoratedImpl>("IMPL")).toBeInstanceOf(UndecoratedImpl);
      expect(app.get<UndecoratedImpl>("IMPL").dependency).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it("names esbuild and the swc plugin when a decorated class has no design:paramtypes", async () => {
    class Dependency {}
    // What esbuild builds: the decorator runs, no `design:paramtypes` is emitted.
    class Decorated {
      constructor(readonly dependency: Dependency) {}
    }
    Injectable()(Decorated);
    @Module({ providers: [Dependency, Decorated] })
    class AppModule {}

    const error = await failedStart(AppModule);
    expect(error.message).toContain("parameter #0 of Decorated");
    expect(error.message).toContain('no type metadata ("design:paramtypes")');
    expect(error.message).toContain("unplugin-swc");
    // It points to a section that exists.
    expect(error.message).toContain('see "Decorator metadata under vitest" in docs/testing.md');
    expect(readFileSync("docs/testing.md", "utf8")).toMatch(
      /^## Decorator metadata under vitest$/m,
    );
  });

  it("refuses a parameter typed as an interface without @Inject", async () => {
    interface Repository {
      find(): unknown;
    }
    @Injectable()
    class Other {}
    @Injectable()
    class UsesInterface {
      constructor(
        readonly other: Other,
        readonly repository: Repository,
      ) {}
    }
    @Module({ providers: [Other, UsesInterface] })
    class AppModule {}

    const error = await failedStart(AppModule);
    expect(error.message).toContain("parameter #1 of UsesInterface");
    expect(error.message).toContain("Object");
    expect(error.message).toContain("@Inject(token)");
  });

  it("reports a dependency cycle with its path", async () => {
    // Class references cannot form a cycle in emitted metadata (the later class is still in
    // its temporal dead zone), so B reaches back to A through a token aliasing A.
    @Injectable()
    class B {
      constructor(@Inject("A") readonly a: unknown) {}
    }
    @Injectable()
    class A {
      constructor(readonly b: B) {}
    }
    @Module({ providers: [A, B, { token: "A", useFactory: (a: A) => a, inject: [A] }] })
    class AppModule {}

    const error = await failedStart(AppModule);
    expect(error.reason).toBe("CircularDependency");
    expect(error.message).toBe(
      'A circular dependency has been detected inside "A". Please, make sure that each side of a bidirectional relationships are decorated with "forwardRef()". Note that circular relationships between custom providers (e.g., factories) are not supported since functions cannot be called more than once.',
    );
    expect(error.path).toBe('Dependency cycle: A -> B -> "A" -> A (in AppModule)');
  });

  it("reports a direct two-provider cycle A -> B -> A", async () => {
    @Module({
      providers: [
        { token: "A", useFactory: (b: unknown) => ({ b }), inject: ["B"] },
        { token: "B", useFactory: (a: unknown) => ({ a }), inject: ["A"] },
      ],
    })
    class AppModule {}

    const error = await failedStart(AppModule);
    expect(error.message).toMatch(/^A circular dependency has been detected inside "A"\./);
    expect(error.path).toBe('Dependency cycle: "A" -> "B" -> "A" (in AppModule)');
  });

  it("reports a failing factory and releases what was already built", async () => {
    const log: Array<string> = [];
    @Injectable()
    class Database {
      onModuleInit() {
        log.push("db init");
      }
      onModuleDestroy() {
        log.push("db destroy");
      }
    }
    @Module({
      providers: [
        Database,
        {
          token: "CACHE",
          useFactory: (_db: Database) => {
            throw new Error("cache server unreachable");
          },
          inject: [Database],
        },
      ],
    })
    class AppModule {}

    const error = await failedStart(AppModule);
    expect(error.message).toContain('"CACHE"');
    expect(error.message).toContain("AppModule");
    expect(error.message).toContain("cache server unreachable");
    expect(log).toEqual(["db init", "db destroy"]);
  });

  it("reports a rejected async factory", async () => {
    @Module({
      providers: [
        {
          token: "REMOTE",
          useFactory: async () => {
            throw new Error("remote down");
          },
        },
      ],
    })
    class AppModule {}

    const error = await failedInit(AppModule);
    expect(error.message).toContain('"REMOTE"');
    expect(error.message).toContain("remote down");
  });

  it("reports an import that is not a module", async () => {
    class NotAModule {}
    @Module({ imports: [NotAModule] })
    class AppModule {}

    const error = await failedStart(AppModule);
    expect(error.message).toContain("NotAModule");
    expect(error.message).toContain("AppModule");
    expect(error.message).toContain("@Module()");
  });

  it("reports a controller without @Controller", async () => {
    class Plain {
      @Get("x")
      x() {
        return "x";
      }
    }
    @Module({ controllers: [Plain] })
    class AppModule {}

    const error = await failedStart(AppModule);
    expect(error.message).toContain("Plain");
    expect(error.message).toContain("@Controller()");
  });

  it("reports a controller whose dependency is missing", async () => {
    @Injectable()
    class NotProvided {}
    @Controller("c")
    class NeedsService {
      constructor(readonly service: NotProvided) {}
      @Get()
      get() {
        return "ok";
      }
    }
    @Module({ controllers: [NeedsService] })
    class AppModule {}

    const error = await failedStart(AppModule);
    expect(error.message).toContain("parameter #0 (NotProvided) of NeedsService in AppModule");
  });

  it("reports routes that differ only in a parameter's name, with the port left free", async () => {
    @Controller("users")
    class ById {
      @Get(":id")
      get() {
        return "by id";
      }
    }
    @Controller("users")
    class ByName {
      @Get(":name")
      get() {
        return "by name";
      }
    }
    @Module({ controllers: [ById, ByName] })
    class ConflictingModule {}
    const error = await failedStart(ConflictingModule);
    expect(error.message).toMatch(/^The routes cannot be served: .*\/users\/:/);
  });

  it("rejects listen on a busy port and still releases providers on close", async () => {
    const log: Array<string> = [];
    @Injectable()
    class Resource {
      onModuleDestroy() {
        log.push("destroy");
      }
    }
    @Module({ providers: [Resource] })
    class AppModule {}
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
    const address = blocker.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const app = new StrataApp(AppModule);
      await expect(app.listen(port, "127.0.0.1")).rejects.toBeDefined();
      expect(() => app.getUrl()).toThrow(
        "app.listen() needs to be called before calling app.getUrl()",
      );
      await app.close();
      expect(log).toEqual(["destroy"]);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it("still starts once the error is fixed, on the same port", async () => {
    @Module({ imports: [class Broken {}] })
    class BrokenModule {}
    await failedStart(BrokenModule);

    @Injectable()
    class Fine {}
    @Module({ providers: [Fine] })
    class FixedModule {}
    const app = new StrataApp(FixedModule);
    apps.push(app);
    await app.listen(0);
    expect(app.getUrl()).toMatch(/^http:\/\//);
  });
});
