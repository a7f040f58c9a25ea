import { describe, expect, it } from "vitest";
import { RequestInfo } from "../../src/effect/index.js";
import {
  Controller,
  Get,
  Module,
  RateLimitMiddleware,
  Req,
  type RequestContext,
  StrataApp,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { startedApps } from "../support/started.js";

@Controller()
class ApiController {
  @Get("api")
  api() {
    return { ok: true };
  }

  /** Who the client is behind one proxy, as the rate limit counts it. */
  @Get("client")
  client(@Req() req: RequestContext) {
    return { client: req.req === undefined ? "none" : RequestInfo.clientAddress(req.req, 1) };
  }
}

@Module({ controllers: [ApiController] })
class AppModule {}

/**
 * SECURITY.md 43: behind a proxy that writes `ip:port` (Azure Application Gateway does), the
 * port is not part of the client's address, and an entry that is no IP address is never a key.
 */
describe("check 43: a forwarded address is counted as the address", () => {
  const start = startedApps();
  const limited = (options: ConstructorParameters<typeof RateLimitMiddleware>[0]) =>
    start(AppModule, {}, (app) => app.use(new RateLimitMiddleware(options)));
  const from = (app: StrataApp, xff: string, path = "/api") =>
    request(app, "GET", path, { headers: { "x-forwarded-for": xff } });
  const statuses = async (app: StrataApp, entries: ReadonlyArray<string>) => {
    const seen: Array<number> = [];
    for (const entry of entries) seen.push((await from(app, entry)).status);
    return seen;
  };

  it("an IPv4 entry with a port counts as its address, whatever the port (trustProxy: 1)", async () => {
    const app = await limited({ max: 1, trustProxy: 1 });
    expect(await statuses(app, ["203.0.113.7:1111", "203.0.113.7:2222", "203.0.113.7"])).toEqual([
      200, 429, 429,
    ]);
    const refused = await from(app, "203.0.113.7:3333");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ statusCode: 429, message: "Too Many Requests" });
    // Another address still has its own count.
    expect((await from(app, "203.0.113.8:1111")).status).toBe(200);
  });

  it("a bracketed IPv6 entry, with or without a port, counts as its address", async () => {
    const app = await limited({ max: 1, trustProxy: 1, ipv6Subnet: false });
    expect(
      await statuses(app, [
        "[2001:db8::1]:1111",
        "[2001:db8::1]:2222",
        "[2001:db8::1]",
        "2001:db8::1",
      ]),
    ).toEqual([200, 429, 429, 429]);
    expect((await from(app, "[2001:db8::2]:1111")).status).toBe(200);
  });

  it("an entry that is no IP address is never a key of its own: the socket's peer is counted", async () => {
    const app = await limited({ max: 2, trustProxy: 1 });
    expect(
      await statuses(app, ["unknown", "_hidden", "not-an-ip:1111", "[not-v6]:1", "1.2.3.4.5:1"]),
    ).toEqual([200, 200, 429, 429, 429]);
    // The peer's own requests share that count.
    expect((await request(app, "GET", "/api")).status).toBe(429);
  });

  it("with a list of proxies, ports are dropped from the proxies' entries and the client's", async () => {
    const app = await limited({ max: 1, trustProxy: ["loopback", "10.0.0.0/8"] });
    expect(
      await statuses(app, [
        "203.0.113.7:1111, 10.0.0.2:4444",
        "203.0.113.7:2222, 10.0.0.2:5555",
        "203.0.113.7, 10.0.0.3",
      ]),
    ).toEqual([200, 429, 429]);
    // A name written in place of the client is not a key: the peer (127.0.0.1) is counted.
    expect(await statuses(app, ["unknown, 10.0.0.2", "other-name, 10.0.0.2"])).toEqual([200, 429]);
  });

  it("RequestInfo.clientAddress answers the address without its port", async () => {
    const app = await start(AppModule);
    const cases: Array<[string, string]> = [
      ["203.0.113.7:1111", "203.0.113.7"],
      ["6.6.6.6, [2001:db8::1]:1111", "2001:db8::1"],
      ["[2001:db8::1]", "2001:db8::1"],
      ["2001:db8::1", "2001:db8::1"],
      ["unknown", "127.0.0.1"],
      ["203.0.113.7:", "127.0.0.1"],
    ];
    for (const [header, client] of cases) {
      const answer = await from(app, header, "/client");
      expect(answer.status, header).toBe(200);
      expect(answer.body, header).toEqual({ client });
    }
  });
});
