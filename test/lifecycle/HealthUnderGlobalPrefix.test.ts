import { describe, expect, it } from "vitest";
import { All, Controller, Get, Module, type StrataApp } from "../../src/index.js";
import { startedApps } from "../support/started.js";

@Controller("cats")
class CatsController {
  @Get()
  list() {
    return ["Tom"];
  }
}

@Controller("health")
class OwnHealthController {
  @Get()
  health() {
    return { mine: true };
  }
}

@Controller()
class AnyMethodHealthController {
  @All("health")
  health() {
    return { any: true };
  }
}

@Module({ controllers: [CatsController] })
class CatsModule {}

@Module({ controllers: [CatsController, OwnHealthController] })
class OwnHealthModule {}

@Module({ controllers: [AnyMethodHealthController] })
class AnyMethodHealthModule {}

/** A GET over real HTTP: status, JSON body (or the text when it is not JSON). */
const get = async (app: StrataApp, path: string) => {
  const response = await fetch(`${await app.getUrl()}${path}`);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body };
};

const notFound = { statusCode: 404, message: expect.any(String) };

describe("the health probes and the global prefix", () => {
  const start = startedApps();

  it("with setGlobalPrefix, the probes are under the prefix and the root /health answers 404", async () => {
    const app = await start(CatsModule, {}, (a) => a.setGlobalPrefix("/api/v1"));
    expect(await get(app, "/api/v1/cats")).toEqual({ status: 200, body: ["Tom"] });
    expect(await get(app, "/health")).toEqual({ status: 404, body: notFound });
    expect(await get(app, "/ready")).toEqual({ status: 404, body: notFound });
    expect(await get(app, "/api/v1/health")).toEqual({ status: 200, body: { status: "up" } });
    expect(await get(app, "/api/v1/ready")).toEqual({
      status: 200,
      body: { status: "up", checks: [] },
    });
  });

  it("a probe excluded from the prefix stays at the root, as an excluded controller route would", async () => {
    const app = await start(CatsModule, {}, (a) =>
      a.setGlobalPrefix("api", { exclude: ["health"] }),
    );
    expect(await get(app, "/health")).toEqual({ status: 200, body: { status: "up" } });
    expect(await get(app, "/api/health")).toEqual({ status: 404, body: notFound });
    expect(await get(app, "/api/ready")).toMatchObject({ status: 200 });
  });

  it("paths the app configured are served as given, prefix or not", async () => {
    const app = await start(CatsModule, { health: { livenessPath: "/healthz" } }, (a) =>
      a.setGlobalPrefix("api"),
    );
    expect(await get(app, "/healthz")).toEqual({ status: 200, body: { status: "up" } });
    expect(await get(app, "/api/healthz")).toEqual({ status: 404, body: notFound });
    expect(await get(app, "/health")).toEqual({ status: 404, body: notFound });
  });

  it("the app's own /health wins over the built-in probe, under the prefix or excluded from it", async () => {
    const under = await start(OwnHealthModule, {}, (a) => a.setGlobalPrefix("api"));
    expect(await get(under, "/api/health")).toEqual({ status: 200, body: { mine: true } });
    expect(await get(under, "/health")).toEqual({ status: 404, body: notFound });
    const excluded = await start(OwnHealthModule, {}, (a) =>
      a.setGlobalPrefix("api", { exclude: ["health"] }),
    );
    expect(await get(excluded, "/health")).toEqual({ status: 200, body: { mine: true } });
    expect(await get(excluded, "/api/cats")).toEqual({ status: 200, body: ["Tom"] });
  });

  it("an @All('health') route of the app is not shadowed by the built-in GET /health", async () => {
    const app = await start(AnyMethodHealthModule);
    expect(await get(app, "/health")).toEqual({ status: 200, body: { any: true } });
  });
});
