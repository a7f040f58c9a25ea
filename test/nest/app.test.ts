import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  Injectable,
  Module,
  NestFactory,
  type PipeTransform,
  Query,
  Request,
  type RequestContext,
  type StrataApp,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";

const log: Array<string> = [];

@Injectable()
class CatsService {
  onModuleInit() {
    log.push("init");
  }
  onModuleDestroy() {
    log.push("destroy");
  }
  greet(name: string) {
    return `meow, ${name}`;
  }
}

@Controller("cats")
class CatsController {
  constructor(private readonly cats: CatsService) {}
  @Get()
  greet(@Query("name") name: string, @Request() req: RequestContext) {
    return { greeting: this.cats.greet(name), method: req.method };
  }
}

@Module({ controllers: [CatsController], providers: [CatsService] })
class AppModule {}

class Trim implements PipeTransform {
  transform(value: unknown) {
    return typeof value === "string" ? value.trim() : value;
  }
}

let app: StrataApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  log.length = 0;
});

describe("NestFactory.create", () => {
  it("gives an app whose providers are built (get works at once), configurable, then listening", async () => {
    app = await NestFactory.create(AppModule);
    expect(app.get(CatsService).greet("Tom")).toBe("meow, Tom");
    expect(log).toEqual(["init"]);
    app.useGlobalPipes(new Trim());
    await app.listen(0);
    const response = await request(app, "GET", "/cats?name=%20Tom%20");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ greeting: "meow, Tom", method: "GET" });
    await app.close();
    expect(log).toEqual(["init", "destroy"]);
  });
});
