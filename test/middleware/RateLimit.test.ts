import * as RateLimiter from "@effect/experimental/RateLimiter";
import { it as effectIt } from "@effect/vitest";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as TestClock from "effect/TestClock";
import { describe, expect, it } from "vitest";
import {
  Controller,
  DEFAULT_RATE_LIMIT,
  ForbiddenError,
  Get,
  MemoryRateLimitStore,
  Module,
  RateLimitMiddleware,
  SecurityHeadersMiddleware,
  StrataApp,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { capturingLogger, startedApps } from "../support/started.js";

@Controller()
class ApiController {
  @Get("api")
  api() {
    return { ok: true };
  }
}

@Module({ controllers: [ApiController] })
class AppModule {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("RateLimitMiddleware", () => {
  const start = startedApps();
  const limited = (options: ConstructorParameters<typeof RateLimitMiddleware>[0]) =>
    start(AppModule, {}, (app) => app.use(new RateLimitMiddleware(options)));

  it("counts requests in RateLimit headers, then answers 429 with Retry-After in the standard shape", async () => {
    const app = await limited({ windowMs: 60_000, max: 3 });
    const remaining: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      const response = await request(app, "GET", "/api");
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe("3");
      remaining.push(response.headers.get("ratelimit-remaining"));
      const reset = Number(response.headers.get("ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const refused = await request(app, "GET", "/api");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ statusCode: 429, message: "Too Many Requests" });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(50);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit-limit")).toBe("3");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("ratelimit-reset")).toBe(String(retryAfter));
    // Unknown routes count too: the limit protects the server, not only the routes.
    expect((await request(app, "GET", "/missing")).status).toBe(429);
  });

  it("defaults to 100 requests per 60 000 ms", async () => {
    expect(DEFAULT_RATE_LIMIT).toEqual({ windowMs: 60_000, max: 100 });
    const app = await limited(undefined);
    const response = await request(app, "GET", "/api");
    expect(response.headers.get("ratelimit-limit")).toBe("100");
    expect(response.headers.get("ratelimit-remaining")).toBe("99");
  });

  it("does not trust a spoofed X-Forwarded-For by default", async () => {
    const app = await limited({ max: 2 });
    const statuses: Array<number> = [];
    for (const ip of ["1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"]) {
      statuses.push(
        (await request(app, "GET", "/api", { headers: { "x-forwarded-for": ip } })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it("keys by X-Forwarded-For when trustProxy says so", async () => {
    const all = await limited({ max: 1, trustProxy: true });
    const get = (app: StrataApp, xff: string) =>
      request(app, "GET", "/api", { headers: { "x-forwarded-for": xff } });
    expect((await get(all, "1.1.1.1")).status).toBe(200);
    expect((await get(all, "2.2.2.2")).status).toBe(200);
    expect((await get(all, "1.1.1.1, 10.0.0.1")).status).toBe(429);

    // One trusted proxy: the client is the last entry; what precedes it is the client's word.
    const one = await limited({ max: 1, trustProxy: 1 });
    expect((await get(one, "9.9.9.9, 1.1.1.1")).status).toBe(200);
    expect((await get(one, "8.8.8.8, 1.1.1.1")).status).toBe(429);
    expect((await get(one, "2.2.2.2")).status).toBe(200);
  });

  it("counts by a custom key", async () => {
    const app = await limited({
      max: 1,
      key: (request) => Promise.resolve(String(request.headers["x-api-key"] ?? "anonymous")),
    });
    const get = (key: string) => request(app, "GET", "/api", { headers: { "x-api-key": key } });
    expect((await get("a")).status).toBe(200);
    expect((await get("b")).status).toBe(200);
    expect((await get("a")).status).toBe(429);
  });

  it("answers a failing key function itself, in the standard shape, under the outer middleware", async () => {
    const logs = capturingLogger();
    /** The answer to a request when the key function throws `error`. */
    const answerWhenKeyThrows = async (error: Error) => {
      const app = await start(AppModule, { logger: logs.logger }, (app) =>
        app.use(
          new SecurityHeadersMiddleware(),
          new RateLimitMiddleware({
            key: () => {
              throw error;
            },
          }),
        ),
      );
      return request(app, "GET", "/api");
    };
    const thrown = await answerWhenKeyThrows(new Error("secret key detail"));
    expect(thrown.status).toBe(500);
    expect(thrown.body).toEqual({ statusCode: 500, message: "Internal Server Error" });
    expect(thrown.headers.get("x-content-type-options")).toBe("nosniff");
    expect(thrown.headers.get("ratelimit-limit")).toBeNull();
    const refused = await answerWhenKeyThrows(new ForbiddenError("No API key"));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ statusCode: 403, message: "No API key" });
    expect(refused.headers.get("x-content-type-options")).toBe("nosniff");
    expect(logs.lines.map((line) => line.text).join("\n")).toContain("secret key detail");
  });

  it("skips the health probes by default, and excluded paths", async () => {
    const app = await limited({ max: 1 });
    for (let i = 0; i < 3; i++) {
      const probe = await request(app, "GET", "/health");
      expect(probe.status).toBe(200);
      expect(probe.headers.get("ratelimit-limit")).toBeNull();
    }
    expect((await request(app, "GET", "/api")).status).toBe(200);
    const custom = await limited({ max: 1, exclude: ["/api"] });
    for (let i = 0; i < 3; i++) expect((await request(custom, "GET", "/api")).status).toBe(200);
  });

  it("lets requests through again once the window has passed", async () => {
    const app = await limited({ windowMs: 1_000, max: 2 });
    expect((await request(app, "GET", "/api")).status).toBe(200);
    expect((await request(app, "GET", "/api")).status).toBe(200);
    const refused = await request(app, "GET", "/api");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    await sleep(1_100);
    expect((await request(app, "GET", "/api")).status).toBe(200);
  });

  it("supports the token-bucket algorithm", async () => {
    const app = await limited({ windowMs: 60_000, max: 2, algorithm: "token-bucket" });
    expect((await request(app, "GET", "/api")).headers.get("ratelimit-remaining")).toBe("1");
    expect((await request(app, "GET", "/api")).headers.get("ratelimit-remaining")).toBe("0");
    const refused = await request(app, "GET", "/api");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBe(30);
  });

  it("refuses nonsense options at startup", async () => {
    for (const options of [{ max: 0 }, { windowMs: -1 }, { max: 1.5 }]) {
      const app = new StrataApp(AppModule).use(new RateLimitMiddleware(options));
      await expect(app.listen(0)).rejects.toThrow(/Rate limit: windowMs/);
      await app.close();
    }
  });
});

describe("MemoryRateLimitStore", () => {
  const consume = (key: string) =>
    Effect.flatMap(RateLimiter.RateLimiter, (limiter) =>
      limiter.consume({ key, limit: 2, window: Duration.seconds(10) }),
    );
  const withStore = <A, E>(effect: Effect.Effect<A, E, RateLimiter.RateLimiter>) =>
    effect.pipe(Effect.provide(RateLimiter.layer), Effect.provide(MemoryRateLimitStore.layer));

  effectIt.scoped("counts per key and starts over when the window has run out", () =>
    withStore(
      Effect.gen(function* () {
        expect((yield* consume("a")).remaining).toBe(1);
        expect((yield* consume("a")).remaining).toBe(0);
        const refused = yield* Effect.flip(consume("a"));
        expect(refused.reason).toBe("Exceeded");
        expect((yield* consume("b")).remaining).toBe(1);
        yield* TestClock.adjust(Duration.seconds(10));
        expect((yield* consume("a")).remaining).toBe(1);
      }),
    ),
  );
});
