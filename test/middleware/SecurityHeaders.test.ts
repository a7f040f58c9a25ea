import { describe, expect, it } from "vitest";
import {
  Controller,
  CsrfMiddleware,
  Get,
  Header,
  Module,
  SecurityHeadersMiddleware,
  StrataApp,
} from "../../src/index.js";
import { DEFAULT_CONTENT_SECURITY_POLICY } from "../../src/middleware/SecurityHeaders.js";
import { request } from "../../src/testing/index.js";
import { startedApps } from "../support/started.js";

@Controller()
class PagesController {
  @Get("data")
  data() {
    return { ok: true };
  }
  @Get("page")
  page() {
    return "<h1>hi</h1>";
  }
  @Get("embeddable")
  @Header("x-frame-options", "SAMEORIGIN")
  embeddable() {
    return "frame me";
  }
}

@Module({ controllers: [PagesController] })
class AppModule {}

describe("SecurityHeadersMiddleware", () => {
  const start = startedApps();
  const withHeaders = (options?: ConstructorParameters<typeof SecurityHeadersMiddleware>[0]) =>
    start(AppModule, {}, (app) => app.use(new SecurityHeadersMiddleware(options)));

  it("sets helmet-like defaults, the CSP on non-JSON responses only, no HSTS over http", async () => {
    const app = await withHeaders();
    const json = await request(app, "GET", "/data");
    expect(json.headers.get("x-content-type-options")).toBe("nosniff");
    expect(json.headers.get("x-frame-options")).toBe("DENY");
    expect(json.headers.get("referrer-policy")).toBe("no-referrer");
    expect(json.headers.get("content-security-policy")).toBeNull();
    expect(json.headers.get("strict-transport-security")).toBeNull();

    const page = await request(app, "GET", "/page");
    expect(page.headers.get("content-security-policy")).toBe(DEFAULT_CONTENT_SECURITY_POLICY);
    expect(DEFAULT_CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(DEFAULT_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(DEFAULT_CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
  });

  it("adds them to error responses, and keeps a header the route set itself", async () => {
    const app = await withHeaders();
    const missing = await request(app, "GET", "/missing");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-content-type-options")).toBe("nosniff");
    const own = await request(app, "GET", "/embeddable");
    expect(own.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(own.headers.get("content-security-policy")).toBe(DEFAULT_CONTENT_SECURITY_POLICY);
  });

  it("sends HSTS on https only, believing X-Forwarded-Proto only when told to", async () => {
    const untrusting = await withHeaders();
    const spoofed = await request(untrusting, "GET", "/data", {
      headers: { "x-forwarded-proto": "https" },
    });
    expect(spoofed.headers.get("strict-transport-security")).toBeNull();

    const trusting = await withHeaders({ trustProxy: true });
    const https = await request(trusting, "GET", "/data", {
      headers: { "x-forwarded-proto": "https" },
    });
    expect(https.headers.get("strict-transport-security")).toBe(
      "max-age=31536000; includeSubDomains",
    );
    expect(
      (await request(trusting, "GET", "/data")).headers.get("strict-transport-security"),
    ).toBeNull();
  });

  it("lets each header be overridden or turned off", async () => {
    const app = await withHeaders({
      contentSecurityPolicy: "default-src 'none'",
      frameOptions: "SAMEORIGIN",
      referrerPolicy: "strict-origin",
      hsts: { maxAge: 60, includeSubDomains: false, preload: true },
      trustProxy: 1,
    });
    const page = await request(app, "GET", "/page", { headers: { "x-forwarded-proto": "https" } });
    expect(page.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(page.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(page.headers.get("referrer-policy")).toBe("strict-origin");
    expect(page.headers.get("strict-transport-security")).toBe("max-age=60; preload");

    const off = await withHeaders({
      contentSecurityPolicy: false,
      frameOptions: false,
      referrerPolicy: false,
      noSniff: false,
      hsts: false,
      trustProxy: true,
    });
    const bare = await request(off, "GET", "/page", { headers: { "x-forwarded-proto": "https" } });
    for (const name of [
      "content-security-policy",
      "x-frame-options",
      "referrer-policy",
      "x-content-type-options",
      "strict-transport-security",
    ]) {
      expect(bare.headers.get(name)).toBeNull();
    }
  });

  it("refuses header values with CR or LF at startup", async () => {
    const app = new StrataApp(AppModule).use(
      new SecurityHeadersMiddleware({ referrerPolicy: "no-referrer\r\nx-evil: 1" }),
    );
    await expect(app.listen(0)).rejects.toThrow(/referrer-policy contains CR or LF/);
    await app.close();
  });

  it("check 38: refuses a trustProxy list it cannot read at startup, not on a request", async () => {
    for (const middleware of [
      new SecurityHeadersMiddleware({ trustProxy: ["10.0.0.0/99"] }),
      new CsrfMiddleware({ trustProxy: ["not-an-address"] }),
    ]) {
      const app = new StrataApp(AppModule).use(middleware);
      await expect(app.listen(0)).rejects.toThrow(/trustProxy: "/);
      await app.close();
    }
  });
});
