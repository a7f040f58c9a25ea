import { describe, expect, it } from "vitest";
import { Controller, CorsMiddleware, Get, Module, Post, StrataApp } from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { startedApps } from "../support/started.js";

@Controller("items")
class ItemsController {
  @Get()
  list() {
    return [1, 2];
  }
  @Post()
  create() {
    return { ok: true };
  }
}

@Module({ controllers: [ItemsController] })
class AppModule {}

const A = "https://a.example";
const B = "https://b.example";

const preflight = (origin: string, extra: Record<string, string> = {}) => ({
  headers: { origin, "access-control-request-method": "POST", ...extra },
});

describe("CorsMiddleware", () => {
  const start = startedApps();
  const withCors = (options: ConstructorParameters<typeof CorsMiddleware>[0]) =>
    start(AppModule, {}, (app) => app.use(new CorsMiddleware(options)));

  it("echoes only a listed origin, exactly, and always varies on Origin", async () => {
    const app = await withCors({ origin: [A, B] });
    const fromA = await request(app, "GET", "/items", { headers: { origin: A } });
    expect(fromA.status).toBe(200);
    expect(fromA.headers.get("access-control-allow-origin")).toBe(A);
    expect(fromA.headers.get("vary")).toBe("Origin");
    expect(fromA.headers.get("access-control-allow-credentials")).toBeNull();

    for (const origin of [
      "https://evil.example",
      `${A}.evil.example`,
      "HTTPS://A.EXAMPLE",
      "null",
    ]) {
      const other = await request(app, "GET", "/items", { headers: { origin } });
      expect(other.status).toBe(200);
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
      expect(other.headers.get("vary")).toBe("Origin");
    }
    const none = await request(app, "GET", "/items");
    expect(none.headers.get("access-control-allow-origin")).toBeNull();
    expect(none.headers.get("vary")).toBe("Origin");
  });

  it("answers a preflight 204 without reaching the routes", async () => {
    const app = await withCors({
      origin: A,
      methods: ["GET", "POST"],
      allowedHeaders: ["content-type", "x-csrf-token"],
      maxAge: 600,
    });
    const response = await request(app, "OPTIONS", "/items", preflight(A));
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(response.headers.get("access-control-allow-origin")).toBe(A);
    expect(response.headers.get("access-control-allow-methods")).toBe("GET,POST");
    expect(response.headers.get("access-control-allow-headers")).toBe("content-type,x-csrf-token");
    expect(response.headers.get("access-control-max-age")).toBe("600");
    expect(response.headers.get("vary")).toBe("Origin");
    // Even for a path no route serves: the preflight is CORS's business.
    expect((await request(app, "OPTIONS", "/nowhere", preflight(A))).status).toBe(204);
  });

  it("reflects the requested headers by default and refuses a preflight from another origin", async () => {
    const app = await withCors({ origin: A });
    const allowed = await request(
      app,
      "OPTIONS",
      "/items",
      preflight(A, { "access-control-request-headers": "x-custom" }),
    );
    expect(allowed.headers.get("access-control-allow-headers")).toBe("x-custom");
    expect(allowed.headers.get("access-control-allow-methods")).toBe(
      "GET,HEAD,PUT,PATCH,POST,DELETE",
    );
    expect(allowed.headers.get("vary")).toBe("Origin, Access-Control-Request-Headers");
    const refused = await request(app, "OPTIONS", "/items", preflight("https://evil.example"));
    expect(refused.status).toBe(204);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(refused.headers.get("access-control-allow-methods")).toBeNull();
  });

  it("sends credentials only with an echoed origin", async () => {
    const app = await withCors({ origin: [A], credentials: true, exposedHeaders: ["x-total"] });
    const response = await request(app, "POST", "/items", { headers: { origin: A } });
    expect(response.status).toBe(201);
    expect(response.headers.get("access-control-allow-origin")).toBe(A);
    expect(response.headers.get("access-control-allow-credentials")).toBe("true");
    expect(response.headers.get("access-control-expose-headers")).toBe("x-total");
    const pre = await request(app, "OPTIONS", "/items", preflight(A));
    expect(pre.headers.get("access-control-allow-credentials")).toBe("true");
  });

  it("allows any origin with * (the default), without credentials and without Vary", async () => {
    const app = await withCors(undefined);
    const response = await request(app, "GET", "/items", { headers: { origin: B } });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    expect(response.headers.get("vary")).toBeNull();
    const pre = await request(app, "OPTIONS", "/items", preflight(B));
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("adds its headers to error responses", async () => {
    const app = await withCors({ origin: A });
    const response = await request(app, "GET", "/missing", { headers: { origin: A } });
    expect(response.status).toBe(404);
    expect(response.headers.get("access-control-allow-origin")).toBe(A);
  });

  it("sends one string origin as it is (the cors package's way), also without an Origin, and answers every OPTIONS", async () => {
    const app = await withCors({
      origin: "example.com",
      credentials: true,
      methods: "GET",
      exposedHeaders: ["foo", "bar"],
      allowedHeaders: ["baz", "woo"],
      maxAge: 123,
    });
    const plain = await request(app, "GET", "/items");
    expect(plain.status).toBe(200);
    expect(plain.text).toBe("[1,2]");
    expect(plain.headers.get("access-control-allow-origin")).toBe("example.com");
    expect(plain.headers.get("access-control-allow-credentials")).toBe("true");
    expect(plain.headers.get("access-control-expose-headers")).toBe("foo,bar");
    expect(plain.headers.get("vary")).toBe("Origin");
    // A request from another origin gets none of it (the browser would refuse either way).
    const other = await request(app, "GET", "/items", { headers: { origin: A } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(other.headers.get("access-control-allow-credentials")).toBeNull();
    expect(other.headers.get("vary")).toBe("Origin");
    // An OPTIONS without Origin is answered by CORS too, with no body.
    const options = await request(app, "OPTIONS", "/items");
    expect(options.status).toBe(204);
    expect(options.text).toBe("");
    expect(options.headers.get("access-control-allow-origin")).toBe("example.com");
    expect(options.headers.get("access-control-allow-methods")).toBe("GET");
    expect(options.headers.get("access-control-allow-headers")).toBe("baz,woo");
    expect(options.headers.get("access-control-expose-headers")).toBe("foo,bar");
    expect(options.headers.get("access-control-max-age")).toBe("123");
  });

  it("refuses * with credentials, and origins that are not bare origins, at startup", async () => {
    for (const [options, message] of [
      [{ origin: "*", credentials: true }, /credentials cannot be allowed for origin "\*"/],
      [{ credentials: true }, /credentials cannot be allowed/],
      [{ origin: ["*", A] }, /cannot be listed with other origins/],
      [{ origin: `${A}/` }, /is not an origin/],
      [{ origin: "null", credentials: true }, /"null" is not an origin/],
      [{ origin: "a.example b.example" }, /is not an origin/],
      [{ origin: [A, "a.example"] }, /"a.example" is not an origin/],
    ] as const) {
      const app = new StrataApp(AppModule).use(new CorsMiddleware(options));
      await expect(app.listen(0)).rejects.toThrow(message);
      await app.close();
    }
  });
});
