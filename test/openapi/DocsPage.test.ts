// The served description: the document, the docs page (no inline script, strict CSP) and its
// script (Scalar's bundle, from @effect/platform, served by the app itself), paths configurable.
import { request as httpRequest } from "node:http";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { Controller, Get, Module, SecurityHeadersMiddleware } from "../../src/index.js";
import { DOCS_CONTENT_SECURITY_POLICY } from "../../src/openapi/OpenApiOptions.js";
import { appsClosedAfterEach } from "./support.js";

@Controller("hello")
class HelloController {
  @Get()
  hello() {
    return { hello: "world" };
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

/** A raw GET (no automatic decompression), its status, headers and body bytes. */
const rawGet = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = httpRequest(url, { headers }, (res) => {
        const chunks: Array<Buffer> = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      });
      req.on("error", reject);
      req.end();
    },
  );

/** Every `<script ...>...</script>` of a page: its attributes and its content. */
const scripts = (html: string) =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes, content]) => ({
    attributes: attributes ?? "",
    content: content ?? "",
  }));

const attribute = (attributes: string, name: string) =>
  [...attributes.matchAll(/([\w-]+)="([^"]*)"/g)].find(([, key]) => key === name)?.[2];

const decodeEntities = (text: string) =>
  text
    .replaceAll("&#x2F;", "/")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

describe("the docs page", () => {
  const listen = appsClosedAfterEach();

  it("runs no inline script: its own script from the app, the document by URL, a strict CSP", async () => {
    const app = await listen(HelloModule);
    const page = await fetch(`${app.getUrl()}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(DOCS_CONTENT_SECURITY_POLICY);
    const directives = Object.fromEntries(
      DOCS_CONTENT_SECURITY_POLICY.split("; ").map((directive) => {
        const [name, ...sources] = directive.split(" ");
        return [name, sources];
      }),
    );
    // Scripts from the app only: no inline script, no JavaScript eval (WebAssembly may compile).
    expect(directives["script-src"]).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives["default-src"]).toEqual(["'none'"]);
    expect(directives["connect-src"]).toEqual(["'self'"]);
    expect(DOCS_CONTENT_SECURITY_POLICY).not.toMatch(/https?:|\*/);
    const html = await page.text();
    const found = scripts(html);
    expect(found).toHaveLength(2);
    // The mount point is data (never run), the configuration in its attributes.
    const [mount, code] = found as [(typeof found)[0], (typeof found)[0]];
    expect(attribute(mount.attributes, "type")).toBe("application/json");
    expect(mount.content).toBe("");
    expect(decodeEntities(attribute(mount.attributes, "data-url") ?? "")).toBe("/openapi.json");
    expect(
      JSON.parse(decodeEntities(attribute(mount.attributes, "data-configuration") ?? "")),
    ).toEqual({
      withDefaultFonts: false,
    });
    expect(code.content).toBe("");
    expect(decodeEntities(attribute(code.attributes, "src") ?? "")).toBe("/docs/scalar.js");
    // Nothing from another origin.
    expect(html).not.toMatch(/https?:\/\//);
  });

  it("serves Scalar's bundle itself, gzipped when the client takes it", async () => {
    const app = await listen(HelloModule);
    const plain = await rawGet(`${app.getUrl()}/docs/scalar.js`);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("accept-encoding");
    const source = plain.body.toString("utf8");
    expect(source).toContain("@scalar/api-reference");
    expect(source).toContain('getElementById("api-reference")');
    const zipped = await rawGet(`${app.getUrl()}/docs/scalar.js`, {
      "accept-encoding": "gzip, br",
    });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
  });

  it("escapes the title it shows", async () => {
    const app = await listen(HelloModule, {
      openapi: { info: { title: '</title><script>alert("x")</script>' } },
    });
    const html = await (await fetch(`${app.getUrl()}/docs`)).text();
    expect(scripts(html)).toHaveLength(2);
    expect(html).toContain(
      "<title>&lt;&#x2F;title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;&#x2F;script&gt;</title>",
    );
  });

  it("keeps its own policy under the security headers middleware", async () => {
    const app = await listen(HelloModule, {
      openapi: {},
      globalMiddleware: [SecurityHeadersMiddleware],
    });
    const page = await fetch(`${app.getUrl()}/docs`);
    expect(page.headers.get("content-security-policy")).toBe(DOCS_CONTENT_SECURITY_POLICY);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
  });
});

describe("where the description is served", () => {
  const listen = appsClosedAfterEach();

  it("at the configured paths, and nowhere else", async () => {
    const app = await listen(HelloModule, {
      openapi: { path: "/api/spec.json", docsPath: "/reference" },
    });
    const base = app.getUrl();
    expect((await fetch(`${base}/api/spec.json`)).status).toBe(200);
    const html = await (await fetch(`${base}/reference`)).text();
    const [mount, code] = scripts(html);
    expect(decodeEntities(attribute(mount?.attributes ?? "", "data-url") ?? "")).toBe(
      "/api/spec.json",
    );
    expect(decodeEntities(attribute(code?.attributes ?? "", "src") ?? "")).toBe(
      "/reference/scalar.js",
    );
    expect((await fetch(`${base}/reference/scalar.js`)).status).toBe(200);
    for (const path of ["/openapi.json", "/docs", "/docs/scalar.js"]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, message: "Not Found" });
    }
    expect(app.routes.filter((route) => route.controller === "OpenApi")).toEqual([
      { method: "GET", path: "/api/spec.json", controller: "OpenApi", handler: "document" },
      { method: "GET", path: "/reference", controller: "OpenApi", handler: "page" },
      { method: "GET", path: "/reference/scalar.js", controller: "OpenApi", handler: "script" },
    ]);
  });

  it("docsPath: false serves the document alone", async () => {
    const app = await listen(HelloModule, { openapi: { docsPath: false } });
    expect((await fetch(`${app.getUrl()}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${app.getUrl()}/docs`)).status).toBe(404);
  });

  it("the document is encoded once: every request gets the same bytes", async () => {
    const app = await listen(HelloModule);
    const first = await rawGet(`${app.getUrl()}/openapi.json`);
    const second = await rawGet(`${app.getUrl()}/openapi.json`);
    expect(first.headers["cache-control"]).toBe("no-cache");
    expect(second.body.equals(first.body)).toBe(true);
    expect(JSON.parse(first.body.toString("utf8")).paths["/hello"].get.operationId).toBe(
      "HelloController.hello",
    );
  });
});
