import { describe, expect, it } from "vitest";
import {
  Controller,
  DiscoveryModule,
  DiscoveryService,
  Get,
  Injectable,
  MetadataScanner,
  Module,
  type OnApplicationBootstrap,
  Scope,
} from "../../src/index.js";
import { request, Test } from "../../src/testing/index.js";
import { appsClosedAfterEach } from "../support/apps.js";

const { listen } = appsClosedAfterEach();

const Job = DiscoveryService.createDecorator<{ name: string }>();
const OnEvent = DiscoveryService.createDecorator<{ event: string }>();
const NeverApplied = DiscoveryService.createDecorator();

@Job({ name: "cleanup" })
class CleanupJob {
  @OnEvent({ event: "start" })
  start() {
    return "cleaned";
  }
  helper() {
    return "not an event";
  }
}

@Job({ name: "report" })
@Injectable({ scope: Scope.REQUEST })
class ReportJob {}

@Module({ providers: [CleanupJob, ReportJob] })
class JobsModule {}

/** Finds the jobs once every provider is built, as a scheduler would, and serves what it found. */
@Injectable()
class JobRegistry implements OnApplicationBootstrap {
  jobs: Array<{ name: string | undefined; instance: boolean; events: Array<unknown> }> = [];
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}
  onApplicationBootstrap() {
    this.jobs = this.discovery.getProviders({ metadataKey: Job.KEY }).map((wrapper) => ({
      name: this.discovery.getMetadataByDecorator(Job, wrapper)?.name,
      instance: wrapper.instance instanceof (wrapper.metatype as Function),
      events: this.scanner
        .getAllMethodNames((wrapper.metatype as Function).prototype)
        .map((method) => [method, this.discovery.getMetadataByDecorator(OnEvent, wrapper, method)]),
    }));
  }
}

@Controller("jobs")
class JobsController {
  constructor(private readonly registry: JobRegistry) {}
  @Get()
  list() {
    return this.registry.jobs;
  }
}

@Module({
  imports: [JobsModule, DiscoveryModule],
  controllers: [JobsController],
  providers: [JobRegistry],
})
class AppModule {}

describe("DiscoveryService reads the compiled module graph", () => {
  it("finds the providers a discoverable decorator marks, their method metadata and instances", async () => {
    const app = await listen(AppModule);
    const response = await request(app, "GET", "/jobs");
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        name: "cleanup",
        instance: true,
        events: [
          ["start", { event: "start" }],
          ["helper", null],
        ],
      },
      // Request-scoped: listed by class, no instance (one is made per request).
      { name: "report", instance: false, events: [] },
    ]);
  });

  it("lists nothing for a decorator applied nowhere, and filters by module", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    try {
      const discovery = moduleRef.get(DiscoveryService);
      expect(discovery.getProviders({ metadataKey: NeverApplied.KEY })).toEqual([]);
      expect(discovery.getControllers({ metadataKey: NeverApplied.KEY })).toEqual([]);
      expect(discovery.getControllers().map((c) => c.name)).toEqual(["JobsController"]);
      expect(discovery.getProviders({ include: [JobsModule] }).map((p) => p.name)).toEqual([
        "CleanupJob",
        "ReportJob",
        "JobsModule",
      ]);
    } finally {
      await moduleRef.close();
    }
  });
});
