import { afterEach, describe, expect, it } from "vitest";
import {
  Body,
  Controller,
  Get,
  Injectable,
  Module,
  type PipeTransform,
  Post,
  type StrataApp,
} from "../../src/index.js";
import { request, Test, type TestingModule } from "../../src/testing/index.js";

const log: Array<string> = [];

@Injectable()
class CatsService {
  readonly cats: Array<string> = [];
  onModuleInit() {
    log.push("init");
  }
  onModuleDestroy() {
    log.push("destroy");
  }
}

@Controller("cats")
class CatsController {
  constructor(private readonly cats: CatsService) {}
  @Get()
  findAll() {
    return this.cats.cats;
  }
  @Post()
  create(@Body("name") name: string) {
    this.cats.cats.push(name);
    return { name };
  }
}

@Module({ controllers: [CatsController], providers: [CatsService] })
class CatsModule {}

/** Upper-cases string arguments: shows a global pipe added after compile() runs. */
class Shout implements PipeTransform {
  transform(value: unknown) {
    return typeof value === "string" ? value.toUpperCase() : value;
  }
}

let open: Array<TestingModule | StrataApp> = [];
afterEach(async () => {
  await Promise.all(open.map((closeable) => closeable.close()));
  open = [];
  log.length = 0;
});

describe("createNestApplication shares the testing module's container", () => {
  it("one instance and one onModuleInit for the module and its app (was a second container)", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [CatsModule] }).compile();
    const app = moduleRef.createNestApplication();
    open.push(moduleRef, app);
    await app.init();
    expect(app.get(CatsService)).toBe(moduleRef.get(CatsService));
    expect(log).toEqual(["init"]);
    moduleRef.get(CatsService).cats.push("Tom");
    await app.listen(0);
    const response = await request(app, "GET", "/cats");
    expect(response.body).toEqual(["Tom"]);
  });

  it("global pipes added on the app after compile() apply, as in NestJS's e2e tests", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [CatsModule] }).compile();
    const app = moduleRef.createNestApplication();
    open.push(app);
    app.useGlobalPipes(new Shout());
    await app.init();
    await app.listen(0);
    const created = await request(app, "POST", "/cats", { body: { name: "tom" } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: "TOM" });
    expect(moduleRef.get(CatsService).cats).toEqual(["TOM"]);
  });

  it("closing the app or the module runs onModuleDestroy once", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [CatsModule] }).compile();
    const app = moduleRef.createStrataApp();
    await app.init();
    await app.close();
    await moduleRef.close();
    expect(log).toEqual(["init", "destroy"]);
  });

  it("refuses configuration once the routes are compiled, naming what to do", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [CatsModule] }).compile();
    const app = moduleRef.createNestApplication();
    open.push(app);
    await app.init();
    expect(() => app.useGlobalPipes(new Shout())).toThrow("before init() or listen()");
  });
});

describe("a module's configure(consumer)", () => {
  it("is called once at compile (its middleware: test/app/middleware-consumer.test.ts)", async () => {
    @Module({ controllers: [CatsController], providers: [CatsService] })
    class WithMiddleware {
      configure(consumer: { apply: Function }) {
        log.push(`configured ${typeof consumer.apply}`);
      }
    }
    @Module({ imports: [WithMiddleware] })
    class AppModule {}
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    open.push(moduleRef);
    expect(log).toEqual(["init", "configured function"]);
  });
});
