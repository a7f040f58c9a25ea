import { describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  Global,
  Injectable,
  LazyModuleLoader,
  Module,
  type OnModuleDestroy,
} from "../../src/index.js";
import { request, Test } from "../../src/testing/index.js";
import { appsClosedAfterEach } from "../support/apps.js";

const { track } = appsClosedAfterEach();

const log: Array<string> = [];

@Injectable()
class Clock {
  readonly id = Math.random();
}

@Global()
@Module({ providers: [Clock], exports: [Clock] })
class ClockModule {}

@Injectable()
class Counter {
  count = 0;
}

@Module({ providers: [Counter], exports: [Counter] })
class CounterModule {}

@Injectable()
class Reports implements OnModuleDestroy {
  constructor(
    readonly clock: Clock,
    readonly counter: Counter,
  ) {}
  onModuleDestroy() {
    log.push("reports destroyed");
  }
}

@Module({ imports: [CounterModule], providers: [Reports, { provide: "KIND", useValue: "real" }] })
class ReportsModule {}

@Controller("reports")
class ReportsController {
  constructor(
    private readonly loader: LazyModuleLoader,
    private readonly clock: Clock,
    private readonly counter: Counter,
  ) {}
  @Get()
  async report() {
    const moduleRef = await this.loader.load(() => ReportsModule);
    const again = await this.loader.load(() => Promise.resolve(ReportsModule));
    const reports = moduleRef.get(Reports);
    reports.counter.count++;
    return {
      sameModuleRef: again === moduleRef,
      sharesGlobal: reports.clock === this.clock,
      sharesImportedModule: reports.counter === this.counter,
      count: this.counter.count,
      kind: moduleRef.get("KIND"),
    };
  }
}

@Module({ imports: [ClockModule, CounterModule], controllers: [ReportsController] })
class AppModule {}

describe("LazyModuleLoader", () => {
  it("loads a module once, sharing the app's global and already imported modules", async () => {
    log.length = 0;
    const app = track(AppModule);
    await app.listen(0);
    for (const count of [1, 2]) {
      const response = await request(app, "GET", "/reports");
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        sameModuleRef: true,
        sharesGlobal: true,
        sharesImportedModule: true,
        count,
        kind: "real",
      });
    }
    await app.close();
    expect(log).toEqual(["reports destroyed"]);
  });

  it("applies a testing module's overrides to lazily loaded modules", async () => {
    @Module({
      providers: [{ provide: "KIND", useValue: "fake" }, Reports],
      imports: [CounterModule],
    })
    class FakeReportsModule {}
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideModule(ReportsModule)
      .useModule(FakeReportsModule)
      .compile();
    try {
      const lazy = await moduleRef.get(LazyModuleLoader).load(() => ReportsModule);
      expect(lazy.get("KIND")).toBe("fake");
    } finally {
      await moduleRef.close();
    }
  });

  it("refuses a module with controllers, naming it", async () => {
    @Controller("late")
    class LateController {}
    @Module({ controllers: [LateController] })
    class LateModule {}
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    try {
      await expect(moduleRef.get(LazyModuleLoader).load(() => LateModule)).rejects.toThrow(
        "LazyModuleLoader cannot load LateModule: it declares controllers (LateController), and routes are fixed when the app starts.",
      );
    } finally {
      await moduleRef.close();
    }
  });
});
