import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { RedisRateLimitStore } from "../../src/effect/index.js";
import {
  Controller,
  Get,
  Module,
  RateLimitMiddleware,
  type RateLimitOptions,
  type StrataApp,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { type RedisInstance, startRedis } from "../support/redis.js";
import { capturingLogger, startedApps } from "../support/started.js";
import { rateLimitStoreContract } from "./support/rateLimitStoreContract.js";

@Controller()
class ApiController {
  @Get("api")
  api() {
    return { ok: true };
  }
}

@Module({ controllers: [ApiController] })
class AppModule {}

/** The shared Redis of the run (see test/support/globalSetup.ts). */
const sharedRedisPort = (): number => {
  const redis = inject("redis");
  if ("error" in redis) throw new Error(`No Redis for the Redis tests: ${redis.error}`);
  return redis.port;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` passes (Redis reconnects with a backoff). */
const eventually = async (check: () => Promise<boolean>, timeoutMs = 8_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(100);
  }
};

describe("RateLimitMiddleware with the Redis store", () => {
  const start = startedApps();
  const limitedApp = (port: number, options: RateLimitOptions, keyPrefix: string) => {
    const { logger, lines } = capturingLogger();
    return start(AppModule, { logger }, (app) =>
      app.use(
        new RateLimitMiddleware({
          ...options,
          store: RedisRateLimitStore.layer({ port, host: "127.0.0.1", keyPrefix }),
        }),
      ),
    ).then((app) => ({ app, lines }));
  };
  const get = (app: StrataApp) => request(app, "GET", "/api");

  it("enforces one combined limit across two app instances sharing one Redis", async () => {
    const port = sharedRedisPort();
    const prefix = `test:${randomUUID()}:`;
    const { app: first } = await limitedApp(port, { windowMs: 60_000, max: 5 }, prefix);
    const { app: second } = await limitedApp(port, { windowMs: 60_000, max: 5 }, prefix);
    const answers = [];
    for (const app of [first, second, first, second, first]) {
      const response = await get(app);
      const header = (name: string) => response.headers.get(name);
      answers.push([response.status, header("ratelimit-remaining"), header("ratelimit-reset")]);
    }
    // One window for both instances: its end does not move with each request.
    expect(answers).toEqual([
      [200, "4", "60"],
      [200, "3", "60"],
      [200, "2", "60"],
      [200, "1", "60"],
      [200, "0", "60"],
    ]);
    for (const app of [second, first]) {
      const refused = await get(app);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ statusCode: 429, message: "Too Many Requests" });
      expect(refused.headers.get("retry-after")).toBe("60");
      expect(refused.headers.get("ratelimit-reset")).toBe("60");
    }
    // Concurrent requests are counted atomically.
    const other = `test:${randomUUID()}:`;
    const { app: third } = await limitedApp(port, { max: 10 }, other);
    const { app: fourth } = await limitedApp(port, { max: 10 }, other);
    const burst = await Promise.all(
      Array.from({ length: 16 }, (_, i) => get(i % 2 === 0 ? third : fourth)),
    );
    expect(burst.filter((r) => r.status === 200)).toHaveLength(10);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(6);
  });

  it("keeps a fixed window across instances: refused until it ends, Retry-After true, then a new window", async () => {
    const port = sharedRedisPort();
    const prefix = `test:${randomUUID()}:`;
    const options = { windowMs: 2_000, max: 2 };
    const { app: first } = await limitedApp(port, options, prefix);
    const { app: second } = await limitedApp(port, options, prefix);
    expect((await get(first)).status).toBe(200);
    expect((await get(second)).status).toBe(200);
    // A leaky bucket would give a request back after 1 000 ms: a fixed window does not.
    await sleep(1_100);
    const refused = await get(second);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    await sleep(1_200);
    const next = await get(first);
    expect(next.status).toBe(200);
    expect(next.headers.get("ratelimit-remaining")).toBe("1");
    expect(next.headers.get("ratelimit-reset")).toBe("2");
  });

  it("supports the token-bucket algorithm on Redis", async () => {
    const port = sharedRedisPort();
    const prefix = `test:${randomUUID()}:`;
    const options = { windowMs: 60_000, max: 2, algorithm: "token-bucket" } as const;
    const { app: first } = await limitedApp(port, options, prefix);
    const { app: second } = await limitedApp(port, options, prefix);
    expect((await get(first)).headers.get("ratelimit-remaining")).toBe("1");
    expect((await get(second)).headers.get("ratelimit-remaining")).toBe("0");
    const refused = await get(first);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
  });

  describe("while Redis is down", () => {
    let redis: RedisInstance | undefined;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it("fails open by default: serves without limit, logs once, and limits again when Redis is back", async () => {
      const instance = redis as RedisInstance;
      const { app, lines } = await limitedApp(instance.port, { max: 100 }, "open:");
      const before = await get(app);
      expect(before.status).toBe(200);
      expect(before.headers.get("ratelimit-remaining")).toBe("99");

      await instance.stop();
      for (let i = 0; i < 3; i++) {
        const during = await get(app);
        expect(during.status).toBe(200);
        expect(during.body).toEqual({ ok: true });
        expect(during.headers.get("ratelimit-limit")).toBeNull();
      }
      const warnings = lines.filter((line) =>
        line.message.startsWith("Rate limit store unavailable"),
      );
      expect(warnings).toHaveLength(1);
      expect(warnings[0].message).toContain("failing open");

      redis = await startRedis(instance.port);
      await eventually(async () => (await get(app)).headers.get("ratelimit-limit") === "100");
      expect(lines.some((line) => line.message === "Rate limit store available again")).toBe(true);
    });

    it("fails closed when configured: 503 in the standard shape", async () => {
      const { app } = await limitedApp(
        (redis as RedisInstance).port,
        { onStoreError: "closed" },
        "closed:",
      );
      expect((await get(app)).status).toBe(200);
      await (redis as RedisInstance).stop();
      const refused = await get(app);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ statusCode: 503, message: "Service Unavailable" });
      // The health probes are not rate limited, so they still answer.
      expect((await request(app, "GET", "/health")).status).toBe(200);
      redis = await startRedis((redis as RedisInstance).port);
    });

    it("starts even when Redis is unreachable from the beginning", async () => {
      const unreachable = (redis as RedisInstance).port;
      await (redis as RedisInstance).stop();
      const startedAt = Date.now();
      const { app, lines } = await limitedApp(unreachable, {}, "never:");
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      expect(lines.some((line) => line.message.includes("Redis is not reachable yet"))).toBe(true);
      expect((await get(app)).status).toBe(200);
      const { app: closed } = await limitedApp(unreachable, { onStoreError: "closed" }, "never:");
      expect((await get(closed)).status).toBe(503);
      redis = await startRedis(unreachable);
    });
  });
});

rateLimitStoreContract("RedisRateLimitStore", {
  layer: RedisRateLimitStore.layer({
    port: sharedRedisPort(),
    host: "127.0.0.1",
    keyPrefix: `test:${randomUUID()}:`,
  }),
  clock: "real",
});
