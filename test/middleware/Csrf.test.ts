import * as Redacted from "effect/Redacted";
import { describe, expect, it } from "vitest";
import { Controller, CsrfMiddleware, Get, Module, Post } from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { capturingLogger, startedApps } from "../support/started.js";

@Controller()
class FormController {
  @Get("form")
  form() {
    return { form: true };
  }
  @Post("submit")
  submit() {
    return { saved: true };
  }
  @Post("hooks/github")
  hook() {
    return { hook: true };
  }
}

@Module({ controllers: [FormController] })
class AppModule {}

/** The `name=value` of the first Set-Cookie named `name`, and its attributes. */
const cookieOf = (headers: Headers, name: string) => {
  const line = headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (line === undefined) return undefined;
  const [pair, ...attributes] = line.split(";").map((part) => part.trim());
  return { value: pair.slice(name.length + 1), attributes, line };
};

describe("CsrfMiddleware", () => {
  const start = startedApps();
  const protectedApp = (options: ConstructorParameters<typeof CsrfMiddleware>[0] = {}) =>
    start(AppModule, {}, (app) =>
      app.use(new CsrfMiddleware({ secret: "test-secret", ...options })),
    );

  it("issues a token cookie on a safe request, readable by scripts, SameSite=Strict", async () => {
    const app = await protectedApp();
    const response = await request(app, "GET", "/form");
    expect(response.status).toBe(200);
    const cookie = cookieOf(response.headers, "csrf-token");
    expect(cookie?.value).toMatch(/^[\w-]{24}\.[\w-]{43}$/);
    expect(cookie?.attributes).toEqual(expect.arrayContaining(["Path=/", "SameSite=Strict"]));
    expect(cookie?.line).not.toMatch(/HttpOnly|Secure/);
    // Holding a valid token, the next safe request gets no new cookie.
    const again = await request(app, "GET", "/form", {
      headers: { cookie: `csrf-token=${cookie?.value}` },
    });
    expect(cookieOf(again.headers, "csrf-token")).toBeUndefined();
  });

  it("accepts an unsafe request that sends the cookie's token back in x-csrf-token", async () => {
    const app = await protectedApp();
    const token = cookieOf((await request(app, "GET", "/form")).headers, "csrf-token")?.value;
    const response = await request(app, "POST", "/submit", {
      headers: { cookie: `csrf-token=${token}`, "x-csrf-token": String(token) },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ saved: true });
  });

  it("answers 403 in the standard shape without a token, with a mismatched or forged one", async () => {
    const app = await protectedApp();
    const token = String(
      cookieOf((await request(app, "GET", "/form")).headers, "csrf-token")?.value,
    );
    const [nonce] = token.split(".");
    const forged = `${nonce}.${"A".repeat(43)}`;
    const attempts: Array<Record<string, string>> = [
      {},
      { cookie: `csrf-token=${token}` },
      { "x-csrf-token": token },
      { cookie: `csrf-token=${token}`, "x-csrf-token": `${token}x` },
      { cookie: `csrf-token=${forged}`, "x-csrf-token": forged },
      { cookie: "csrf-token=not-a-token", "x-csrf-token": "not-a-token" },
    ];
    for (const headers of attempts) {
      const response = await request(app, "POST", "/submit", { headers });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ statusCode: 403, message: "Invalid CSRF token" });
    }
  });

  it("binds tokens to the client: a token minted for one session is refused for another", async () => {
    const app = await protectedApp({ identify: (request) => request.cookies.sid });
    const tokenFor = async (sid: string) =>
      String(
        cookieOf(
          (await request(app, "GET", "/form", { headers: { cookie: `sid=${sid}` } })).headers,
          "csrf-token",
        )?.value,
      );
    const alice = await tokenFor("alice");
    const post = (sid: string, token: string) =>
      request(app, "POST", "/submit", {
        headers: { cookie: `sid=${sid}; csrf-token=${token}`, "x-csrf-token": token },
      });
    expect((await post("alice", alice)).status).toBe(201);
    const stolen = await post("mallory", alice);
    expect(stolen.status).toBe(403);
    // The refused client gets a token of its own to retry with.
    expect(cookieOf(stolen.headers, "csrf-token")?.value).not.toBe(alice);
    // A token minted with another key is refused too.
    const other = await start(AppModule, {}, (other) =>
      other.use(new CsrfMiddleware({ secret: Redacted.make("another-secret") })),
    );
    const foreign = String(
      cookieOf((await request(other, "GET", "/form")).headers, "csrf-token")?.value,
    );
    expect((await post("", foreign)).status).toBe(403);
  });

  it("exempts safe methods and excluded paths", async () => {
    const app = await protectedApp({ excludePaths: ["/hooks"] });
    expect((await request(app, "POST", "/hooks/github")).status).toBe(201);
    expect((await request(app, "HEAD", "/form")).status).toBe(200);
    expect((await request(app, "OPTIONS", "/form")).status).not.toBe(403);
    expect((await request(app, "POST", "/submit")).status).toBe(403);
  });

  it("names the cookie __Host- and marks it Secure on https", async () => {
    const app = await protectedApp({ trustProxy: true });
    const response = await request(app, "GET", "/form", {
      headers: { "x-forwarded-proto": "https" },
    });
    const cookie = cookieOf(response.headers, "__Host-csrf-token");
    expect(cookie?.attributes).toEqual(expect.arrayContaining(["Secure", "Path=/"]));
    const token = String(cookie?.value);
    const accepted = await request(app, "POST", "/submit", {
      headers: {
        "x-forwarded-proto": "https",
        cookie: `__Host-csrf-token=${token}`,
        "x-csrf-token": token,
      },
    });
    expect(accepted.status).toBe(201);
  });

  it("warns when no secret is configured", async () => {
    const { logger, lines } = capturingLogger();
    await start(AppModule, { logger }, (app) => app.use(new CsrfMiddleware()));
    expect(lines.some((line) => line.level === "WARN" && line.message.includes("CSRF"))).toBe(true);
  });
});
