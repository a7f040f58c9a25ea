import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  type CorsOptions,
  Get,
  Module,
  NestFactory,
  Post,
  type StrataApp,
} from "../../src/index.js";

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

@Controller("empty")
class EmptyController {
  @Get()
  empty() {
    return "";
  }
}

@Module({ controllers: [ItemsController, EmptyController] })
class AppModule {}

const A = "https://a.example";
const B = "https://b.example";

describe("app.enableCors as NestJS calls it", () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  const started = async (configure: (app: StrataApp) => void) => {
    const app = await NestFactory.create(AppModule);
    apps.push(app);
    configure(app);
    await app.listen(0, "127.0.0.1");
    return await app.getUrl();
  };

  it("a delegate (req, callback) decides the options per request", async () => {
    const seen: Array<string> = [];
    const base = await started((app) =>
      app.enableCors((req, callback) => {
        seen.push(`${req.method} ${req.url}`);
        callback(null, { origin: req.headers["x-tenant"] === "b" ? B : A, credentials: true });
      }),
    );
    const fromA = await fetch(`${base}/items`, { headers: { origin: A } });
    expect(fromA.status).toBe(200);
    expect(await fromA.json()).toEqual([1, 2]);
    expect(fromA.headers.get("access-control-allow-origin")).toBe(A);
    expect(fromA.headers.get("access-control-allow-credentials")).toBe("true");
    expect(fromA.headers.get("vary")).toBe("Origin");

    const bAsA = await fetch(`${base}/items`, { headers: { origin: B } });
    expect(bAsA.status).toBe(200);
    expect(bAsA.headers.get("access-control-allow-origin")).toBeNull();

    const preflight = await fetch(`${base}/items`, {
      method: "OPTIONS",
      headers: { origin: B, "x-tenant": "b", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(B);
    expect(seen).toEqual(["GET /items", "GET /items", "OPTIONS /items"]);
  });

  it("a delegate's error, or options that are not valid, answer that request 500 in the standard shape", async () => {
    let mode: "error" | "invalid" | "ok" = "error";
    const base = await started((app) =>
      app.enableCors((_req, callback) => {
        if (mode === "error") callback(new Error("tenant lookup down: secret-detail"));
        else if (mode === "invalid") callback(null, { methods: 42 } as unknown as CorsOptions);
        else callback(null, { origin: A });
      }),
    );
    for (const m of ["error", "invalid"] as const) {
      mode = m;
      const response = await fetch(`${base}/items`, { headers: { origin: A } });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ statusCode: 500, message: "Internal Server Error" });
      expect(text).not.toContain("secret-detail");
    }
    mode = "ok";
    const fine = await fetch(`${base}/items`, { headers: { origin: A } });
    expect(fine.status).toBe(200);
    expect(fine.headers.get("access-control-allow-origin")).toBe(A);
  });

  it("methods, allowedHeaders and exposedHeaders as strings, as the cors package takes them", async () => {
    const base = await started((app) =>
      app.enableCors({
        origin: A,
        methods: "GET,POST",
        allowedHeaders: "Content-Type,X-Api-Key",
        exposedHeaders: "X-Total",
        optionsSuccessStatus: 200,
      }),
    );
    const preflight = await fetch(`${base}/items`, {
      method: "OPTIONS",
      headers: { origin: A, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET,POST");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("Content-Type,X-Api-Key");
    const simple = await fetch(`${base}/items`, { headers: { origin: A } });
    expect(simple.status).toBe(200);
    expect(simple.headers.get("access-control-expose-headers")).toBe("X-Total");
  });

  it("options that are not valid throw at enableCors, saying why; nothing is served with them", async () => {
    const app = await NestFactory.create(AppModule);
    apps.push(app);
    const bad: ReadonlyArray<readonly [unknown, RegExp]> = [
      [{ methods: 42 }, /CORS: methods must be a string or a list of strings/],
      [{ origin: true }, /CORS: origin must be .*true \(reflecting any origin\) is not supported/],
      [{ origin: /example\.com$/ }, /CORS: origin must be/],
      [{ orign: A }, /CORS: unknown option "orign"/],
      [{ origin: "*", credentials: true }, /CORS: credentials cannot be allowed for origin "\*"/],
      [{ origin: `${A}/` }, /CORS: "https:\/\/a.example\/" is not an origin/],
      [{ maxAge: -1 }, /CORS: maxAge must be/],
    ];
    for (const [options, message] of bad) {
      expect(() => app.enableCors(options as CorsOptions)).toThrow(message);
    }
    await app.listen(0, "127.0.0.1");
    const response = await fetch(`${await app.getUrl()}/items`, { headers: { origin: A } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("through app.getHttpServer() (supertest's way), a string methods answers instead of hanging", async () => {
    const app = await NestFactory.create(AppModule);
    apps.push(app);
    app.enableCors({ origin: A, methods: "GET" });
    await app.init();
    const server = app.getHttpServer();
    server.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/items`, {
      method: "OPTIONS",
      headers: { origin: A, "access-control-request-method": "GET" },
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-methods")).toBe("GET");
  });

  it("NestFactory.create's cors option (a delegate here) is enableCors at creation; an empty body says Content-Length: 0", async () => {
    const given: Array<CorsOptions> = [
      { origin: "example.com", credentials: true, exposedHeaders: ["foo", "bar"] },
      { origin: "sample.com", methods: "GET", allowedHeaders: ["baz", "foo"], maxAge: 321 },
    ];
    let next = 0;
    const app = await NestFactory.create(AppModule, {
      cors: (_req, callback) => callback(null, given[next++ % 2]),
    });
    apps.push(app);
    await app.listen(0, "127.0.0.1");
    const base = await app.getUrl();
    const first = await fetch(`${base}/empty`);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe("");
    expect(first.headers.get("content-length")).toBe("0");
    expect(first.headers.get("access-control-allow-origin")).toBe("example.com");
    expect(first.headers.get("access-control-allow-credentials")).toBe("true");
    expect(first.headers.get("access-control-expose-headers")).toBe("foo,bar");
    expect(first.headers.get("vary")).toBe("Origin");
    const second = await fetch(`${base}/empty`, { method: "OPTIONS" });
    expect(second.status).toBe(204);
    expect(second.headers.get("content-length")).toBe("0");
    expect(second.headers.get("access-control-allow-origin")).toBe("sample.com");
    expect(second.headers.get("access-control-allow-headers")).toBe("baz,foo");
    expect(second.headers.get("access-control-max-age")).toBe("321");
    // Options that are not valid refuse the creation, saying why.
    await expect(NestFactory.create(AppModule, { cors: { origin: "null" } })).rejects.toThrow(
      /CORS: "null" is not an origin/,
    );
  });
});
