import * as HttpClient from "@effect/platform/HttpClient";
import { layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import { Health } from "../../src/effect/index.js";
import {
  Controller,
  Get,
  HealthCheckManager,
  Injectable,
  LoggerMiddleware,
  Module,
  type OnModuleInit,
  OperationsModule,
  RateLimitMiddleware,
  ShutdownManager,
} from "../../src/index.js";
import { request, serveTest, Test } from "../../src/testing/index.js";
import { capturingLogger, startedApps } from "../support/started.js";

@Controller("api")
class ApiController {
  @Get()
  api() {
    return { ok: true };
  }
}

@Module({ controllers: [ApiController] })
class AppModule {}

describe("HealthCheckManager and the health probes", () => {
  const start = startedApps();

  it("answers liveness on /health and readiness on /ready, uncached", async () => {
    const app = await start(AppModule);
    const live = await request(app, "GET", "/health");
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: "up" });
    expect(live.headers.get("cache-control")).toBe("no-store");
    const ready = await request(app, "GET", "/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "up", checks: [] });
    expect(ready.headers.get("cache-control")).toBe("no-store");
  });

  it("flips readiness to 503 naming the check that failed, and back", async () => {
    let databaseUp = true;
    const app = await start(AppModule, {}, (app) => {
      app.healthCheckManager.register({ name: "database", check: () => databaseUp });
      app.healthCheckManager.register({
        name: "queue",
        check: async () => ({ status: "up", details: { depth: 3 } }),
      });
    });
    expect((await request(app, "GET", "/ready")).body).toEqual({
      status: "up",
      checks: [
        { name: "database", status: "up" },
        { name: "queue", status: "up", details: { depth: 3 } },
      ],
    });
    databaseUp = false;
    const down = await request(app, "GET", "/ready");
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      status: "down",
      checks: [
        { name: "database", status: "down" },
        { name: "queue", status: "up", details: { depth: 3 } },
      ],
    });
    // Liveness does not depend on the checks.
    expect((await request(app, "GET", "/health")).status).toBe(200);
    databaseUp = true;
    expect((await request(app, "GET", "/ready")).status).toBe(200);
  });

  it("counts a throwing, failing or slow check as down, without leaking its error", async () => {
    const { logger, lines } = capturingLogger();
    const app = await start(AppModule, { logger }, (app) => {
      app.healthCheckManager.register({
        name: "throws",
        check: () => {
          throw new Error("password=hunter2 rejected");
        },
      });
      app.healthCheckManager.register({
        name: "fails",
        check: () => Effect.fail("connection refused"),
      });
      app.healthCheckManager.register({
        name: "slow",
        timeout: 50,
        check: () => new Promise<void>((resolve) => setTimeout(resolve, 5_000)),
      });
    });
    const began = Date.now();
    const response = await request(app, "GET", "/ready");
    expect(Date.now() - began).toBeLessThan(1_000);
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      status: "down",
      checks: [
        { name: "throws", status: "down", details: { error: "check failed" } },
        { name: "fails", status: "down", details: { error: "check failed" } },
        { name: "slow", status: "down", details: { error: "timed out after 50 ms" } },
      ],
    });
    expect(response.text).not.toContain("hunter2");
    expect(lines.some((line) => line.text.includes("hunter2"))).toBe(true);
  });

  it("is down while the app shuts down, without running the checks", async () => {
    let ran = 0;
    const shutdown = new ShutdownManager();
    const manager = new HealthCheckManager(shutdown);
    manager.register({ name: "a", check: () => void ran++ });
    expect(await manager.runAll()).toEqual([{ name: "a", status: "up" }]);
    shutdown.setShuttingDown(true);
    expect(shutdown.isShuttingDown).toBe(true);
    expect(await manager.runAll()).toEqual([
      { name: "shutdown", status: "down", details: { error: "Shutting down" } },
    ]);
    expect(ran).toBe(1);
    shutdown.setShuttingDown(false);
    expect(await manager.runAll()).toEqual([{ name: "a", status: "up" }]);
  });

  it("ties the managers OperationsModule gives a testing module together", async () => {
    @Module({ imports: [OperationsModule] })
    class OperationsOnly {}
    const module = await Test.createTestingModule({ imports: [OperationsOnly] }).compile();
    module.get(ShutdownManager).setShuttingDown(true);
    expect(await module.get(HealthCheckManager).runAll()).toEqual([
      { name: "shutdown", status: "down", details: { error: "Shutting down" } },
    ]);
  });

  it("runs every check with runAll() and refuses duplicate names", async () => {
    const manager = new HealthCheckManager();
    manager.register({ name: "a", check: () => undefined });
    manager.register({ name: "b", check: () => false });
    expect(await manager.runAll()).toEqual([
      { name: "a", status: "up" },
      { name: "b", status: "down" },
    ]);
    expect(() => manager.register({ name: "a", check: () => true })).toThrow(/already registered/);
  });

  it("serves the probes on configured paths, or not at all", async () => {
    const custom = await start(AppModule, {
      health: { livenessPath: "/livez", readinessPath: "/readyz" },
    });
    expect((await request(custom, "GET", "/livez")).status).toBe(200);
    expect((await request(custom, "GET", "/readyz")).status).toBe(200);
    expect((await request(custom, "GET", "/health")).status).toBe(404);
    const none = await start(AppModule, { health: false });
    expect((await request(none, "GET", "/health")).status).toBe(404);
    expect((await request(none, "GET", "/ready")).status).toBe(404);
  });

  it("lets an app's own /health route take precedence", async () => {
    @Controller("health")
    class OwnHealthController {
      @Get()
      health() {
        return { mine: true };
      }
    }
    @Module({ controllers: [OwnHealthController] })
    class OwnModule {}
    const app = await start(OwnModule);
    expect((await request(app, "GET", "/health")).body).toEqual({ mine: true });
    expect((await request(app, "GET", "/ready")).body).toEqual({ status: "up", checks: [] });
  });

  it("keeps the probes out of rate limiting and request logs, on whatever paths they are", async () => {
    const { logger, lines } = capturingLogger();
    const app = await start(AppModule, { logger, health: { livenessPath: "/livez" } }, (app) =>
      app.use(LoggerMiddleware, new RateLimitMiddleware({ max: 1 })),
    );
    for (let i = 0; i < 3; i++) {
      expect((await request(app, "GET", "/livez")).status).toBe(200);
      expect((await request(app, "GET", "/ready")).status).toBe(200);
    }
    expect((await request(app, "GET", "/api")).status).toBe(200);
    expect((await request(app, "GET", "/api")).status).toBe(429);
    const logged = lines.filter((line) => line.message === "HTTP request");
    expect(logged.map((line) => line.annotations.path)).toEqual(["/api", "/api"]);
  });

  it("gives providers the app's manager through OperationsModule", async () => {
    @Injectable()
    class Database implements OnModuleInit {
      constructor(private readonly health: HealthCheckManager) {}
      onModuleInit() {
        this.health.register({ name: "database", check: () => false });
      }
    }
    @Module({ imports: [OperationsModule], providers: [Database] })
    class InjectingModule {}
    const app = await start(InjectingModule);
    expect(app.get(HealthCheckManager)).toBe(app.healthCheckManager);
    const ready = await request(app, "GET", "/ready");
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: "down", checks: [{ name: "database", status: "down" }] });
  });
});

describe("Health.routes (Effect face)", () => {
  const manager = new HealthCheckManager();
  let up = true;
  manager.register({ name: "cache", check: () => Effect.succeed(up) });
  layer(serveTest(Health.routes(manager, { livenessPath: false })))("routes", (it) => {
    it.effect("serves readiness only, flipping with the check", () =>
      Effect.gen(function* () {
        expect((yield* HttpClient.get("/health")).status).toBe(404);
        expect((yield* HttpClient.get("/ready")).status).toBe(200);
        up = false;
        const down = yield* HttpClient.get("/ready");
        expect(down.status).toBe(503);
        expect(yield* down.json).toEqual({
          status: "down",
          checks: [{ name: "cache", status: "down" }],
        });
      }),
    );
  });
});
