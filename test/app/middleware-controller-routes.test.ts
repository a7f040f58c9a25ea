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
  RouterModule,
  type StrataApp,
  Version,
  VersioningType,
} from "../../src/index.js";

/** Marks the response of every request the middleware ran for, then goes on. */
const mark = (_req: NestMiddlewareRequest, res: NestMiddlewareResponse, next: () => void) => {
  res.setHeader("x-scoped", "yes");
  next();
};

/** A controller without a path of its own: its routes are spread over the app's paths. */
@Controller()
class RootController {
  @Get("test")
  test() {
    return "test";
  }

  @Post("items/:id")
  item() {
    return "item";
  }
}

@Controller("other")
class OtherController {
  @Get()
  other() {
    return "other";
  }

  @Get("test")
  test() {
    return "other test";
  }
}

@Controller({ path: "versioned", version: "1" })
class VersionedController {
  @Get()
  v1() {
    return "v1";
  }

  @Version("2")
  @Get("two")
  v2() {
    return "v2";
  }
}

@Module({ controllers: [RootController] })
class ScopedModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(mark).forRoutes(RootController);
  }
}

@Module({ imports: [ScopedModule], controllers: [VersionedController, OtherController] })
class VersionedAppModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(mark).forRoutes(VersionedController);
  }
}

@Module({ imports: [ScopedModule], controllers: [OtherController] })
class AppModule {}

@Controller()
class VersionedPathController {
  @Version("1")
  @Get("versioned-path")
  v1() {
    return "path v1";
  }

  @Version("2")
  @Get("versioned-path")
  v2() {
    return "path v2";
  }
}

@Module({ controllers: [VersionedPathController] })
class VersionedPathModule {
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(mark)
      .forRoutes({ path: "/versioned-path", version: "1", method: RequestMethod.ALL });
  }
}

@Module({
  imports: [ScopedModule, RouterModule.register([{ path: "/module-path/", module: ScopedModule }])],
  controllers: [OtherController],
})
class RoutedAppModule {}

describe("forRoutes finds routes where the app serves them (global prefix, RouterModule, URI version)", () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  const start = async (
    module: Parameters<typeof NestFactory.create>[0],
    setup?: (app: StrataApp) => void,
  ) => {
    const app = await NestFactory.create(module);
    setup?.(app);
    apps.push(app);
    await app.listen(0, "127.0.0.1");
    return app.getUrl();
  };

  const scoped = async (url: string, method = "GET") => {
    const response = await fetch(url, { method });
    return {
      status: response.status,
      body: await response.text(),
      scoped: response.headers.get("x-scoped"),
    };
  };

  it("a controller without a path of its own: its routes, with their methods, and no other controller's", async () => {
    const base = await start(AppModule);
    expect(await scoped(`${base}/test`)).toEqual({ status: 200, body: "test", scoped: "yes" });
    expect(await scoped(`${base}/items/7`, "POST")).toEqual({
      status: 201,
      body: "item",
      scoped: "yes",
    });
    // Another method on the same path is not the controller's route.
    expect((await scoped(`${base}/items/7`)).scoped).toBeNull();
    expect(await scoped(`${base}/other`)).toEqual({ status: 200, body: "other", scoped: null });
    expect(await scoped(`${base}/other/test`)).toEqual({
      status: 200,
      body: "other test",
      scoped: null,
    });
  });

  it("under a RouterModule path", async () => {
    const base = await start(RoutedAppModule);
    expect(await scoped(`${base}/module-path/test`)).toEqual({
      status: 200,
      body: "test",
      scoped: "yes",
    });
    expect((await scoped(`${base}/other`)).scoped).toBeNull();
  });

  it("under URI versioning and the global prefix", async () => {
    const base = await start(VersionedAppModule, (app) => {
      app.setGlobalPrefix("api");
      app.enableVersioning({ type: VersioningType.URI });
    });
    expect(await scoped(`${base}/api/v1/versioned`)).toEqual({
      status: 200,
      body: "v1",
      scoped: "yes",
    });
    expect(await scoped(`${base}/api/v2/versioned/two`)).toEqual({
      status: 200,
      body: "v2",
      scoped: "yes",
    });
    expect(await scoped(`${base}/api/test`)).toEqual({ status: 200, body: "test", scoped: "yes" });
    expect((await scoped(`${base}/api/other`)).scoped).toBeNull();
  });

  it("a { path, version } route is matched after its URI version segment", async () => {
    const base = await start(VersionedPathModule, (app) => {
      app.setGlobalPrefix("api");
      app.enableVersioning({ type: VersioningType.URI, prefix: "version" });
    });
    expect(await scoped(`${base}/api/version1/versioned-path`)).toEqual({
      status: 200,
      body: "path v1",
      scoped: "yes",
    });
    expect(await scoped(`${base}/api/version2/versioned-path`)).toEqual({
      status: 200,
      body: "path v2",
      scoped: null,
    });
  });
});
