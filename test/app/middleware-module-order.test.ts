import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  Global,
  type MiddlewareConsumer,
  Module,
  NestFactory,
  type NestMiddlewareRequest,
  type NestMiddlewareResponse,
  type StrataApp,
} from "../../src/index.js";

/** Records the order the middleware ran in. */
const ran: Array<string> = [];
const record =
  (name: string) =>
  (_req: NestMiddlewareRequest, _res: NestMiddlewareResponse, next: () => void) => {
    ran.push(name);
    next();
  };

@Controller("hello")
class HelloController {
  @Get()
  hello() {
    return "hello";
  }
}

@Module({})
class DeepModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(record("deep")).forRoutes("hello");
  }
}

@Module({ imports: [DeepModule] })
class MiddleModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(record("middle")).forRoutes("hello");
  }
}

@Global()
@Module({})
class SharedModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(record("global")).forRoutes("hello");
  }
}

/** The root also imports DeepModule directly: its distance is still the longest path's. */
@Module({
  imports: [DeepModule, MiddleModule, SharedModule],
  controllers: [HelloController],
})
class AppModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(record("root")).forRoutes("hello");
  }
}

describe("the middleware of configure(consumer) runs in NestJS's module order", () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    ran.length = 0;
  });

  it("global modules first, then the modules closer to the root before those they import", async () => {
    const app = await NestFactory.create(AppModule);
    apps.push(app);
    await app.listen(0, "127.0.0.1");
    const response = await fetch(`${await app.getUrl()}/hello`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("hello");
    expect(ran).toEqual(["global", "root", "middle", "deep"]);
  });
});
