import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  type MiddlewareConsumer,
  Module,
  NestFactory,
  type NestMiddlewareRequest,
  type NestMiddlewareResponse,
  type StrataApp,
} from "../../src/index.js";

@Controller()
class PagesController {
  @Get("wildcard/overview")
  overview() {
    return "overview";
  }

  @Get("wildcards")
  wildcards() {
    return "wildcards";
  }

  @Get("star/deep/page")
  star() {
    return "star";
  }
}

@Module({ controllers: [PagesController] })
class AppModule {
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply((_req: NestMiddlewareRequest, res: NestMiddlewareResponse) => res.send("middleware"))
      .exclude("wildcard/(.*)", "star/*")
      .forRoutes("*");
  }
}

describe("exclude with (.*) and * wildcards", () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it("skips the paths the wildcard covers, and only those", async () => {
    const app = await NestFactory.create(AppModule);
    apps.push(app);
    await app.listen(0, "127.0.0.1");
    const base = await app.getUrl();
    const text = async (path: string) => {
      const response = await fetch(`${base}${path}`);
      return `${response.status} ${await response.text()}`;
    };
    expect(await text("/wildcard/overview")).toBe("200 overview");
    expect(await text("/star/deep/page")).toBe("200 star");
    // "wildcard/(.*)" does not cover a path that only starts with "wildcard".
    expect(await text("/wildcards")).toBe("200 middleware");
  });
});
