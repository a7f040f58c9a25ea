import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { it as effectIt } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as TestClock from "effect/TestClock";
import { describe, expect, it } from "vitest";
import { MemoryRateLimitStore, RateLimit } from "../../src/effect/index.js";
import {
  Controller,
  ForbiddenError,
  Get,
  Module,
  RateLimitMiddleware,
  type RateLimitOptions,
  SecurityHeadersMiddleware,
  StrataApp,
} from "../../src/index.js";
import { DEFAULT_RATE_LIMIT } from "../../src/middleware/RateLimit.js";
import { request, serveTest } from "../../src/testing/index.js";
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("RateLimitMiddleware", () => {
  const start = startedApps();
  const limited = (options: ConstructorParameters<typeof RateLimitMiddleware>[0]) =>
    start(AppModule, {}, (app) => app.use(new RateLimitMiddleware(options)));
  const from = (app: StrataApp, xff: string) =>
    request(app, "GET", "/api", { headers: { "x-forwarded-for": xff } });

  it("counts requests in RateLimit headers, then answers 429 with Retry-After in the standard shape", async () => {
    const app = await limited({ windowMs: 60_000, max: 3 });
    const remaining: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      const response = await request(app, "GET", "/api");
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe("3");
      remaining.push(response.headers.get("ratelimit-remaining"));
      expect(response.headers.get("ratelimit-reset")).toBe("60");
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

  it("check 22: does not trust a spoofed X-Forwarded-For by default", async () => {
    const app = await limited({ max: 2 });
    const statuses: Array<number> = [];
    for (const ip of ["1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"]) {
      statuses.push((await from(app, ip)).status);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it("check 34: with a hop count, the client is that many entries from the right; what precedes it is the client's word", async () => {
    const one = await limited({ max: 1, trustProxy: 1 });
    expect((await from(one, "9.9.9.9, 1.1.1.1")).status).toBe(200);
    expect((await from(one, "8.8.8.8, 1.1.1.1")).status).toBe(429);
    expect((await from(one, "1.1.1.1")).status).toBe(429);
    expect((await from(one, "2.2.2.2")).status).toBe(200);
    const two = await limited({ max: 1, trustProxy: 2 });
    expect((await from(two, "1.1.1.1, 10.0.0.1")).status).toBe(200);
    expect((await from(two, "6.6.6.6, 1.1.1.1, 10.0.0.2")).status).toBe(429);
  });

  it("check 34: with a list of proxies, the client is the rightmost X-Forwarded-For entry that is not one of them", async () => {
    const app = await limited({
      max: 1,
      trustProxy: ["loopback", "10.0.0.0/8", "2001:db8:ffff::7"],
    });
    expect((await from(app, "6.6.6.6, 1.1.1.1, 10.0.0.2")).status).toBe(200);
    // Whatever the client writes to the left, it is still 1.1.1.1 behind the same proxies.
    expect((await from(app, "7.7.7.7, 1.1.1.1, 10.0.0.2")).status).toBe(429);
    expect((await from(app, "1.1.1.1, 10.9.9.9, 2001:db8:ffff::7")).status).toBe(429);
    expect((await from(app, "1.1.1.1")).status).toBe(429);
    // Writing a trusted proxy's address does not help either: it is skipped, not believed.
    expect((await from(app, "1.1.1.1, 10.0.0.3")).status).toBe(429);
    expect((await from(app, "1.1.1.1, 2.2.2.2")).status).toBe(200);
  });

  it("check 34: X-Forwarded-For from a peer that is not a listed proxy is ignored", async () => {
    const app = await limited({ max: 2, trustProxy: ["10.0.0.0/8"] });
    const statuses: Array<number> = [];
    for (const ip of ["1.1.1.1", "2.2.2.2", "3.3.3.3"]) statuses.push((await from(app, ip)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("counts an IPv6 client per /64 (configurable), and an IPv4-mapped address as its IPv4 address", async () => {
    const app = await limited({ max: 1, trustProxy: 1 });
    expect((await from(app, "2001:db8::1")).status).toBe(200);
    expect((await from(app, "2001:db8:0:0:ffff:ffff:ffff:ffff")).status).toBe(429);
    expect((await from(app, "2001:DB8::abcd%eth0")).status).toBe(429);
    expect((await from(app, "2001:db8:0:1::1")).status).toBe(200);
    expect((await from(app, "203.0.113.7")).status).toBe(200);
    expect((await from(app, "::ffff:203.0.113.7")).status).toBe(429);
    expect((await from(app, "::ffff:cb00:7108")).status).toBe(200);
    expect((await from(app, "203.0.113.8")).status).toBe(429);

    const wider = await limited({ max: 1, trustProxy: 1, ipv6Subnet: 48 });
    expect((await from(wider, "2001:db8::1")).status).toBe(200);
    expect((await from(wider, "2001:db8:0:1::1")).status).toBe(429);
    expect((await from(wider, "2001:db8:1::1")).status).toBe(200);

    const perAddress = await limited({ max: 1, trustProxy: 1, ipv6Subnet: false });
    expect((await from(perAddress, "2001:db8::1")).status).toBe(200);
    expect((await from(perAddress, "2001:db8:0::1")).status).toBe(429);
    expect((await from(perAddress, "2001:db8::2")).status).toBe(200);
  });

  it("check 38: refuses trustProxy: true at startup, naming the option, and does not listen", async () => {
    const app = new StrataApp(AppModule).use(new RateLimitMiddleware({ trustProxy: true }));
    const failure = app.listen(0);
    await expect(failure).rejects.toThrow(/Rate limit: trustProxy: true/);
    await expect(failure).rejects.toThrow(/any client writes/);
    expect(() => app.getUrl()).toThrow();
    await app.close();
  });

  it("check 38: refuses a trusted-proxy list it cannot read, and other nonsense options, at startup", async () => {
    const refusals: Array<[RateLimitOptions, RegExp]> = [
      [{ max: 0 }, /Rate limit: windowMs/],
      [{ windowMs: -1 }, /Rate limit: windowMs/],
      [{ windowMs: 1.5 }, /Rate limit: windowMs/],
      [{ max: 1.5 }, /Rate limit: windowMs/],
      [
        { trustProxy: ["10.0.0.0/33"] },
        /Rate limit: trustProxy: "10.0.0.0\/33" has no valid prefix/,
      ],
      [{ trustProxy: ["10.0.0.0/8", "proxy.internal"] }, /"proxy.internal" is not an IP address/],
      [{ trustProxy: ["2001:db8::/129"] }, /"2001:db8::\/129" has no valid prefix/],
      [{ trustProxy: -1 }, /Rate limit: trustProxy: -1 is not a number of proxies/],
      [{ trustProxy: 1.5 }, /trustProxy: 1.5 is not a number of proxies/],
      [{ ipv6Subnet: 0 }, /Rate limit: ipv6Subnet \(0\)/],
      [{ ipv6Subnet: 129 }, /Rate limit: ipv6Subnet \(129\)/],
    ];
    for (const [options, message] of refusals) {
      const app = new StrataApp(AppModule).use(new RateLimitMiddleware(options));
      await expect(app.listen(0), JSON.stringify(options)).rejects.toThrow(message);
      await app.close();
    }
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
});

describe("RateLimit over time (Effect face, TestClock)", () => {
  const api = HttpLayerRouter.add("GET", "/api", HttpServerResponse.unsafeJson({ ok: true }));
  /**
   * A server limited by `options`, its memory store on the test's clock, and a GET of /api
   * giving the status, the rate-limit headers and the body.
   */
  const limitedServer = (options: RateLimitOptions) =>
    Effect.gen(function* () {
      const middleware = yield* RateLimit.make(options);
      const context = yield* Layer.build(serveTest(api, { middleware }));
      return Effect.gen(function* () {
        const response = yield* HttpClient.get("/api");
        const header = (name: string) => response.headers[name];
        return {
          status: response.status,
          limit: header("ratelimit-limit"),
          remaining: header("ratelimit-remaining"),
          reset: header("ratelimit-reset"),
          retryAfter: header("retry-after"),
          body: yield* response.json,
        };
      }).pipe(Effect.provide(context));
    });

  effectIt.scoped(
    "fixed window: Remaining goes down by one, Reset is the seconds to the window's end, Retry-After the seconds until a request passes",
    () =>
      Effect.gen(function* () {
        const get = yield* limitedServer({ windowMs: 60_000, max: 5 });
        const answers = [];
        for (let i = 0; i < 5; i++) answers.push(yield* get);
        expect(answers.map((a) => [a.status, a.limit, a.remaining, a.reset])).toEqual([
          [200, "5", "4", "60"],
          [200, "5", "3", "60"],
          [200, "5", "2", "60"],
          [200, "5", "1", "60"],
          [200, "5", "0", "60"],
        ]);
        // A leaky bucket would give a request back after 12 s: a fixed window does not.
        yield* TestClock.adjust("12 seconds");
        const refused = yield* get;
        expect(refused).toEqual({
          status: 429,
          limit: "5",
          remaining: "0",
          reset: "48",
          retryAfter: "48",
          body: { statusCode: 429, message: "Too Many Requests" },
        });
        yield* TestClock.adjust("47999 millis");
        expect(yield* get).toMatchObject({ status: 429, retryAfter: "1", reset: "1" });
        // Retry-After was the truth: the request that waits it out passes, in a new window.
        yield* TestClock.adjust("1 millis");
        expect(yield* get).toMatchObject({ status: 200, remaining: "4", reset: "60" });
      }),
  );

  effectIt.scoped("with a large max, Remaining still goes down by one per request", () =>
    Effect.gen(function* () {
      const get = yield* limitedServer({ windowMs: 60_000, max: 1_000 });
      const remaining = [];
      const resets = [];
      for (let i = 0; i < 5; i++) {
        const answer = yield* get;
        remaining.push(answer.remaining);
        resets.push(answer.reset);
        yield* TestClock.adjust("15 seconds");
      }
      expect(remaining).toEqual(["999", "998", "997", "996", "999"]);
      expect(resets).toEqual(["60", "45", "30", "15", "60"]);
    }),
  );

  effectIt.scoped(
    "token bucket (explicit): Retry-After is the seconds until the next token, Reset until the bucket is full",
    () =>
      Effect.gen(function* () {
        const get = yield* limitedServer({ windowMs: 60_000, max: 2, algorithm: "token-bucket" });
        expect(yield* get).toMatchObject({ status: 200, remaining: "1", reset: "30" });
        expect(yield* get).toMatchObject({ status: 200, remaining: "0", reset: "60" });
        yield* TestClock.adjust("10 seconds");
        expect(yield* get).toMatchObject({ status: 429, retryAfter: "20", reset: "50" });
        yield* TestClock.adjust("20 seconds");
        expect(yield* get).toMatchObject({ status: 200, remaining: "0", reset: "60" });
      }),
  );
});

rateLimitStoreContract("MemoryRateLimitStore", {
  layer: MemoryRateLimitStore.layer,
  clock: "test",
});
