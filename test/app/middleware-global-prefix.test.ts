import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  type MiddlewareConsumer,
  Module,
  NestFactory,
  type NestMiddlewareRequest,
  type NestMiddlewareResponse,
  Post,
  RequestMethod,
  type StrataApp,
  VersioningType,
} from "../../src/index.js";

@Controller()
class PagesController {
  @Get("pages")
  pages() {
    return "pages";
  }

  @Post("pages")
  create() {
    return "created";
  }
}

@Controller({ path: "status", version: "1" })
class StatusController {
  @Get("live")
  live() {
    return "live";
  }
}

const answer = (text: string) => (_req: NestMiddlewareRequest, res: NestMiddlewareResponse) =>
  res.send(text);

@Module({ controllers: [PagesController, StatusController] })
class AppModule {
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(answer("hook GET"))
      .forRoutes({ path: "hook", method: RequestMethod.GET })
      .apply(answer("hook POST"))
      .forRoutes({ path: "hook", method: RequestMethod.POST })
      .apply(answer("item"))
      .forRoutes({ path: "items/*", method: RequestMethod.GET });
  }
}

describe("configure(consumer) middleware under the global prefix, as NestJS mounts it", () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  const started = async (configure: (app: StrataApp) => void) => {
    const app = await NestFactory.create(AppModule);
    apps.push(app);
    configure(app);
    await app.listen(0, "127.0.0.1");
    const base = app.getUrl();
    return async (method: string, path: string) => {
      const response = await fetch(`${base}${path}`, { method });
      return `${response.status} ${response.status === 404 ? "" : await response.text()}`;
    };
  };

  it("a middleware path is under the prefix, or only outside it when exclude names it (by method, route params included)", async () => {
    const call = await started((app) =>
      app
        .setGlobalPrefix("/api/v1", {
          exclude: [{ path: "hook", method: RequestMethod.POST }, "/items/:id", "pages"],
        })
        .enableVersioning({ type: VersioningType.URI }),
    );
    expect(await call("GET", "/api/v1/hook")).toBe("200 hook GET");
    expect(await call("GET", "/hook")).toBe("404 ");
    // A { path, method } route covers its path only (Express's app.get), not those under it.
    expect(await call("GET", "/api/v1/hook/deeper")).toBe("404 ");
    expect(await call("POST", "/hook")).toBe("200 hook POST");
    expect(await call("POST", "/api/v1/hook")).toBe("404 ");
    expect(await call("GET", "/items/7")).toBe("200 item");
    expect(await call("GET", "/api/v1/items/7")).toBe("404 ");
    // An excluded controller route is outside the prefix only.
    expect(await call("GET", "/pages")).toBe("200 pages");
    expect(await call("POST", "/pages")).toBe("201 created");
    expect(await call("GET", "/api/v1/pages")).toBe("404 ");
  });

  it("exclude names a URI-versioned route by its path without the version segment", async () => {
    const call = await started((app) =>
      app
        .setGlobalPrefix("api", { exclude: ["status/live"] })
        .enableVersioning({ type: VersioningType.URI }),
    );
    expect(await call("GET", "/v1/status/live")).toBe("200 live");
    expect(await call("GET", "/api/v1/status/live")).toBe("404 ");
  });
});
