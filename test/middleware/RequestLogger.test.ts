import { describe, expect, it } from "vitest";
import { Controller, Get, LoggerMiddleware, Module, Post } from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { capturingLogger, startedApps } from "../support/started.js";

@Controller("callback")
class CallbackController {
  @Get()
  callback() {
    return { ok: true };
  }
  @Post("slow")
  async slow() {
    await new Promise((resolve) => setTimeout(resolve, 30));
    return "done";
  }
}

@Module({ controllers: [CallbackController] })
class AppModule {}

const requestLines = (lines: ReturnType<typeof capturingLogger>["lines"]) =>
  lines.filter((line) => line.message === "HTTP request");

describe("LoggerMiddleware", () => {
  const start = startedApps();

  it("logs one structured line per request: method, path, status, duration", async () => {
    const { logger, lines } = capturingLogger();
    const app = await start(AppModule, { logger }, (app) => app.use(LoggerMiddleware));
    await request(app, "GET", "/callback");
    await request(app, "POST", "/callback/slow");
    await request(app, "GET", "/missing");
    const logged = requestLines(lines);
    expect(logged).toHaveLength(3);
    expect(logged.map((line) => line.level)).toEqual(["INFO", "INFO", "INFO"]);
    expect(logged.map(({ annotations: { durationMs: _, ...rest } }) => rest)).toEqual([
      { method: "GET", path: "/callback", status: 200 },
      { method: "POST", path: "/callback/slow", status: 201 },
      { method: "GET", path: "/missing", status: 404 },
    ]);
    const durations = logged.map((line) => line.annotations.durationMs as number);
    expect(durations.every((ms) => typeof ms === "number" && ms >= 0)).toBe(true);
    expect(durations[1]).toBeGreaterThanOrEqual(25);
  });

  it("never logs query strings, cookies or authorization headers", async () => {
    const { logger, lines } = capturingLogger();
    const app = await start(AppModule, { logger }, (app) => app.use(LoggerMiddleware));
    await request(app, "GET", "/callback?code=SECRET_CODE&state=SECRET_STATE", {
      headers: { authorization: "Bearer SECRET_TOKEN", cookie: "sid=SECRET_COOKIE" },
    });
    const logged = requestLines(lines);
    expect(logged).toHaveLength(1);
    expect(logged[0].annotations.path).toBe("/callback");
    const everything = lines.map((line) => line.text).join("\n");
    for (const secret of ["SECRET_CODE", "SECRET_STATE", "SECRET_TOKEN", "SECRET_COOKIE", "?"]) {
      expect(everything).not.toContain(secret);
    }
  });

  it("takes a level and paths to leave out", async () => {
    const { logger, lines } = capturingLogger();
    const app = await start(AppModule, { logger }, (app) =>
      app.use(new LoggerMiddleware({ level: "Warning", exclude: ["/callback"] })),
    );
    await request(app, "GET", "/callback");
    await request(app, "GET", "/other");
    const logged = requestLines(lines);
    expect(logged).toHaveLength(1);
    expect(logged[0].level).toBe("WARN");
    expect(logged[0].annotations.path).toBe("/other");
  });
});
