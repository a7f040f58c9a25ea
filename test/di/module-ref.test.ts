import { describe, expect, it } from "vitest";
import {
  createContextId,
  Inject,
  Injectable,
  InvalidClassScopeException,
  Module,
  ModuleRef,
  REQUEST,
  RuntimeException,
  Scope,
  StrataApp,
  UnknownDependenciesException,
  UnknownExportException,
} from "../../src/index.js";
import { Test } from "../../src/testing/index.js";

@Injectable()
class Clock {
  now() {
    return 42;
  }
}

@Injectable({ scope: Scope.REQUEST })
class PerRequest {
  constructor(@Inject(REQUEST) readonly request: unknown) {}
}

@Injectable({ scope: Scope.TRANSIENT })
class Fresh {}

/** Not exported: visible to ModuleRef.get, not with `{ strict: true }`. */
@Injectable()
class Hidden {}

@Module({
  providers: [Clock, PerRequest, Fresh, Hidden, { provide: "MULTI", useValue: "A" }],
  exports: [Clock, PerRequest, Fresh],
})
class FeatureModule {}

@Module({ providers: [{ provide: "MULTI", useValue: "B" }] })
class OtherModule {}

@Injectable()
class UsesModuleRef {
  constructor(readonly moduleRef: ModuleRef) {}
}

/** Made by `moduleRef.create`, registered nowhere. */
class Report {
  constructor(
    @Inject(Clock) readonly clock: Clock,
    @Inject(PerRequest) readonly perRequest: PerRequest,
  ) {}
}

@Module({ imports: [FeatureModule, OtherModule], providers: [UsesModuleRef] })
class AppModule {}

const started = async () => {
  const app = new StrataApp(AppModule);
  await app.init();
  return app;
};

describe("ModuleRef", () => {
  it("is injected, and gets singletons from any module (strict: the root module's)", async () => {
    const app = await started();
    try {
      const { moduleRef } = app.get(UsesModuleRef);
      expect(moduleRef).toBeInstanceOf(ModuleRef);
      expect(app.get(ModuleRef)).toBe(moduleRef);
      expect(moduleRef.get(Clock)).toBe(app.get(Clock));
      expect(moduleRef.get(Hidden)).toBeInstanceOf(Hidden);
      expect(() => moduleRef.get(Hidden, { strict: true })).toThrow(
        "No provider of Hidden in the app",
      );
      expect(moduleRef.get("MULTI", { each: true })).toEqual(["A", "B"]);
      expect(app.get("MULTI", { each: true })).toEqual(["A", "B"]);
      expect(moduleRef.get(Fresh)).not.toBe(moduleRef.get(Fresh));
    } finally {
      await app.close();
    }
  });

  it("resolves request-scoped and transient providers once per context id", async () => {
    const app = await started();
    try {
      const moduleRef = app.get(ModuleRef);
      const context = createContextId();
      const first = await moduleRef.resolve(PerRequest, context);
      expect(await moduleRef.resolve(PerRequest, context)).toBe(first);
      expect(await moduleRef.resolve(PerRequest)).not.toBe(first);
      expect(await moduleRef.resolve(Fresh, context)).toBe(await moduleRef.resolve(Fresh, context));
      expect(await moduleRef.resolve(Clock)).toBe(app.get(Clock));

      const request = { host: "localhost" };
      const withRequest = { id: 7 };
      app.registerRequestByContextId(request, withRequest);
      expect((await app.resolve(PerRequest, withRequest)).request).toBe(request);
      expect((await app.resolve(PerRequest)).request).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it("refuses get() of a request-scoped provider with NestJS's InvalidClassScopeException", async () => {
    const app = await started();
    try {
      let thrown: unknown;
      try {
        app.get(PerRequest);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InvalidClassScopeException);
      expect((thrown as Error).message).toContain("PerRequest is request-scoped: use resolve(");
    } finally {
      await app.close();
    }
  });

  it("introspects a provider's scope (Scope.DEFAULT is NestJS's SINGLETON)", async () => {
    const app = await started();
    try {
      const moduleRef = app.get(ModuleRef);
      expect(moduleRef.introspect(Clock).scope).toBe(Scope.DEFAULT);
      expect(Scope.DEFAULT).toBe(Scope.SINGLETON);
      expect(moduleRef.introspect(Fresh).scope).toBe(Scope.TRANSIENT);
      expect(moduleRef.introspect(PerRequest).scope).toBe(Scope.REQUEST);
      expect(() => moduleRef.introspect("NOPE")).toThrow('No provider of "NOPE" in the app');
    } finally {
      await app.close();
    }
  });

  it("creates an unregistered class with its dependencies injected", async () => {
    const app = await started();
    try {
      const report = await app.get(ModuleRef).create(Report);
      expect(report).toBeInstanceOf(Report);
      expect(report.clock).toBe(app.get(Clock));
      expect(report.perRequest).toBeInstanceOf(PerRequest);
    } finally {
      await app.close();
    }
  });

  it("serves the testing module's get({ each }) and resolve(), and get() after close", async () => {
    const module = await Test.createTestingModule({ imports: [AppModule] }).compile();
    expect(module.get("MULTI", { each: true })).toEqual(["A", "B"]);
    expect(await module.resolve(PerRequest)).toBeInstanceOf(PerRequest);
    const clock = module.get(Clock);
    await module.close();
    expect(module.get(Clock)).toBe(clock);
  });
});

describe("module classes are providers of their own module, as in NestJS", () => {
  it("built once with their constructor injected, gettable, their onModuleInit run", async () => {
    const made: Array<unknown> = [];
    @Module({ providers: [Clock], exports: [Clock] })
    class ClockModule {
      initialised = false;
      constructor(readonly clock: Clock) {
        made.push(this);
      }
      onModuleInit() {
        this.initialised = true;
      }
      configure() {}
    }
    @Module({ imports: [ClockModule] })
    class Root {}
    const app = new StrataApp(Root);
    await app.init();
    try {
      const module = app.get(ClockModule);
      expect(module).toBeInstanceOf(ClockModule);
      expect(module.clock).toBe(app.get(Clock));
      expect(module.initialised).toBe(true);
      expect(made).toEqual([module]);
    } finally {
      await app.close();
    }
  });
});

describe("exports", () => {
  it("take the provider object itself, as NestJS's", async () => {
    const config = { provide: "CONFIG", useValue: { debug: true } };
    @Module({ providers: [config], exports: [config] })
    class ConfigModule {}
    @Injectable()
    class UsesConfig {
      constructor(@Inject("CONFIG") readonly config: unknown) {}
    }
    @Module({ imports: [ConfigModule], providers: [UsesConfig] })
    class Root {}
    const app = new StrataApp(Root);
    await app.init();
    try {
      expect(app.get(UsesConfig).config).toEqual({ debug: true });
      expect(app.get("CONFIG", { strict: true })).toEqual({ debug: true });
    } finally {
      await app.close();
    }
  });
});

describe("NestJS's startup exceptions recognise Strata's StartupError", () => {
  const failure = async (module: Function) => {
    try {
      await new StrataApp(module as never).init();
    } catch (error) {
      return error;
    }
    throw new Error("the app started");
  };

  it("UnknownDependenciesException: a missing dependency, or a provider injecting itself", async () => {
    @Injectable()
    class Needs {
      constructor(@Inject("MISSING") readonly missing: unknown) {}
    }
    @Module({ providers: [Needs] })
    class Missing {}
    const missing = await failure(Missing);
    expect(missing).toBeInstanceOf(UnknownDependenciesException);
    expect(missing).toBeInstanceOf(RuntimeException);
    expect(missing).not.toBeInstanceOf(UnknownExportException);

    @Injectable()
    class Itself {
      constructor(@Inject(Itself) readonly self: unknown) {}
    }
    @Module({ providers: [Itself] })
    class SelfModule {}
    const self = await failure(SelfModule);
    expect(self).toBeInstanceOf(UnknownDependenciesException);
    expect((self as Error).message).toContain("Itself in SelfModule injects itself");
  });

  it("UnknownExportException: an export the module neither provides nor imports", async () => {
    @Module({ exports: ["NOPE"] })
    class Exports {}
    @Module({ imports: [Exports] })
    class Root {}
    const error = await failure(Root);
    expect(error).toBeInstanceOf(UnknownExportException);
    expect(error).not.toBeInstanceOf(UnknownDependenciesException);
  });
});
