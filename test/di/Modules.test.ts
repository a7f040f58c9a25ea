import { describe, expect, it } from "vitest";
import { StrataModule } from "../../src/di/Module.js";
import {
  Controller,
  type DynamicModule,
  Get,
  Inject,
  Injectable,
  Module,
  StartupError,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { appsClosedAfterEach } from "../support/apps.js";

const { init, listen, track } = appsClosedAfterEach();

const startupError = async (module: new () => unknown): Promise<StartupError> => {
  const app = track(module);
  const error = await app.listen(0).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StartupError);
  return error as StartupError;
};

@Injectable()
class Hidden {}

@Injectable()
class Shared {
  readonly id = Math.random();
}

@Module({ providers: [Hidden, Shared], exports: [Shared] })
class LibModule {}

describe("encapsulation", () => {
  it("refuses a provider an imported module does not export", async () => {
    @Injectable()
    class NeedsHidden {
      constructor(readonly hidden: Hidden) {}
    }
    @Module({ imports: [LibModule], providers: [NeedsHidden] })
    class AppModule {}

    const error = await startupError(AppModule);
    expect(error.message).toContain("NeedsHidden");
    expect(error.message).toContain("parameter #0 (Hidden)");
    expect(error.message).toMatch(/provided in AppModule > LibModule/);
    expect(error.message).toMatch(/export it there/);
  });

  it("injects a provider the imported module exports", async () => {
    @Injectable()
    class NeedsShared {
      constructor(readonly shared: Shared) {}
    }
    @Controller("shared")
    class SharedController {
      constructor(readonly needs: NeedsShared) {}
      @Get()
      get() {
        return { id: this.needs.shared.id };
      }
    }
    @StrataModule({
      imports: [LibModule],
      providers: [NeedsShared],
      controllers: [SharedController],
    })
    class AppModule {}

    const app = await listen(AppModule);
    const response = await request(app, "GET", "/shared");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: app.get(Shared).id });
  });

  it("does not let a module see providers of its importer", async () => {
    @Injectable()
    class RootOnly {}
    @Injectable()
    class ChildService {
      constructor(readonly root: RootOnly) {}
    }
    @Module({ providers: [ChildService], exports: [ChildService] })
    class ChildModule {}
    @Module({ imports: [ChildModule], providers: [RootOnly] })
    class AppModule {}

    const error = await startupError(AppModule);
    expect(error.message).toContain("ChildService");
    expect(error.message).toContain("AppModule > ChildModule");
  });

  it("does not see transitively imported providers unless re-exported", async () => {
    @Module({ imports: [LibModule] })
    class Middle {}
    @Injectable()
    class NeedsShared {
      constructor(readonly shared: Shared) {}
    }
    @Module({ imports: [Middle], providers: [NeedsShared] })
    class AppModule {}

    const error = await startupError(AppModule);
    expect(error.message).toContain("parameter #0 (Shared) of NeedsShared");
  });

  it("re-exports an imported module", async () => {
    @Module({ imports: [LibModule], exports: [LibModule] })
    class Middle {}
    @Injectable()
    class NeedsShared {
      constructor(readonly shared: Shared) {}
    }
    @Module({ imports: [Middle], providers: [NeedsShared] })
    class AppModule {}

    const app = await init(AppModule);
    expect(app.get(NeedsShared).shared).toBeInstanceOf(Shared);
    expect(app.get(NeedsShared).shared).toBe(app.get(Shared));
  });

  it("re-exports a single provider of an imported module", async () => {
    @Module({ imports: [LibModule], exports: [Shared] })
    class Middle {}
    @Injectable()
    class NeedsShared {
      constructor(readonly shared: Shared) {}
    }
    @Module({ imports: [Middle], providers: [NeedsShared] })
    class AppModule {}

    const app = await init(AppModule);
    expect(app.get(NeedsShared).shared).toBeInstanceOf(Shared);
  });

  it("rejects exporting a token the module neither provides nor imports", async () => {
    @Module({ exports: [Shared] })
    class Liar {}
    @Module({ imports: [Liar] })
    class AppModule {}

    const error = await startupError(AppModule);
    expect(error.message).toContain("exports Shared");
  });
});

describe("dynamic and global modules", () => {
  const CONFIG = Symbol("config");

  @Module({})
  class ConfigModule {
    static forRoot(value: string): DynamicModule {
      return {
        module: ConfigModule,
        global: true,
        providers: [{ token: CONFIG, useValue: { value } }],
        exports: [CONFIG],
      };
    }
  }

  @Injectable()
  class DeepService {
    constructor(@Inject(CONFIG) readonly config: { value: string }) {}
  }

  @Module({ providers: [DeepService], exports: [DeepService] })
  class FeatureModule {}

  it("makes a global module's exports visible in every module", async () => {
    @Module({ imports: [ConfigModule.forRoot("from-root"), FeatureModule] })
    class AppModule {}

    const app = await init(AppModule);
    expect(app.get(DeepService).config).toEqual({ value: "from-root" });
  });

  it("keeps a non-global dynamic module's exports to its importer", async () => {
    @Module({
      imports: [
        { module: ConfigModule, providers: [{ token: CONFIG, useValue: {} }], exports: [CONFIG] },
        FeatureModule,
      ],
    })
    class AppModule {}

    const error = await startupError(AppModule);
    expect(error.message).toContain("DeepService");
    expect(error.message).toContain("Symbol(config)");
  });
});

describe("shared imports", () => {
  it("builds one singleton for a module imported twice", async () => {
    let created = 0;
    @Injectable()
    class Database {
      readonly n = ++created;
    }
    @Module({ providers: [Database], exports: [Database] })
    class DatabaseModule {}

    @Injectable()
    class UsersRepo {
      constructor(readonly db: Database) {}
    }
    @Module({ imports: [DatabaseModule], providers: [UsersRepo], exports: [UsersRepo] })
    class UsersModule {}

    @Injectable()
    class OrdersRepo {
      constructor(readonly db: Database) {}
    }
    @Module({ imports: [DatabaseModule], providers: [OrdersRepo], exports: [OrdersRepo] })
    class OrdersModule {}

    @Module({ imports: [UsersModule, OrdersModule, DatabaseModule] })
    class AppModule {}

    const app = await init(AppModule);
    expect(created).toBe(1);
    expect(app.get(UsersRepo).db).toBe(app.get(OrdersRepo).db);
    expect(app.get(Database)).toBe(app.get(UsersRepo).db);
  });
});
