import { describe, expect, it } from "vitest";
import {
  APP_FILTER,
  APP_GUARD,
  APP_INTERCEPTOR,
  APP_PIPE,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  Catch,
  Container,
  Controller,
  type ExceptionFilter,
  type ExecutionContext,
  forwardRef,
  Get,
  Global,
  Inject,
  Injectable,
  Module,
  type OnModuleInit,
  Optional,
  type PipeTransform,
  Query,
  REQUEST,
  type RequestContext,
  Scope,
  StartupError,
  StrataApp,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { appsClosedAfterEach } from "../support/apps.js";
import { CatsService, initOrder } from "./fixtures/cats.service.js";
import { CommonService } from "./fixtures/common.service.js";

const { init, listen, track } = appsClosedAfterEach();

const failedStart = async (module: Function): Promise<StartupError> => {
  const error = await track(module)
    .init()
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(StartupError);
  return error as StartupError;
};

const get = (app: StrataApp, path: string, headers: Record<string, string> = {}) =>
  request(app, "GET", path, { headers });

describe("provide (NestJS's spelling of token)", () => {
  it("registers useValue, useClass and useFactory providers under `provide`", async () => {
    abstract class Greeter {
      abstract greet(name: string): string;
    }
    @Injectable()
    class EnglishGreeter extends Greeter {
      greet(name: string) {
        return `hello ${name}`;
      }
    }
    const CONFIG = Symbol("config");
    @Controller("greet")
    class GreetController {
      constructor(
        readonly greeter: Greeter,
        @Inject(CONFIG) readonly config: { punctuation: string },
        @Inject("LABEL") readonly label: string,
      ) {}
      @Get()
      greet(@Query("name") name: string) {
        return { text: `${this.greeter.greet(name)}${this.config.punctuation}`, label: this.label };
      }
    }
    @Module({
      controllers: [GreetController],
      providers: [
        { provide: Greeter, useClass: EnglishGreeter },
        { provide: CONFIG, useValue: { punctuation: "!" } },
        {
          provide: "LABEL",
          useFactory: (config: { punctuation: string }) => `label${config.punctuation}`,
          inject: [CONFIG],
        },
      ],
    })
    class AppModule {}

    const app = await listen(AppModule);
    const response = await get(app, "/greet?name=ada");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ text: "hello ada!", label: "label!" });
    expect(app.get(Greeter)).toBeInstanceOf(EnglishGreeter);
  });

  it("providerOverrides written with `provide` each replace their own token", async () => {
    @Module({
      providers: [
        { provide: "A", useValue: "a" },
        { provide: "B", useValue: "b" },
      ],
    })
    class AppModule {}
    const app = new StrataApp(AppModule, {
      providerOverrides: [
        { provide: "A", useValue: "A!" },
        { provide: "B", useValue: "B!" },
      ],
    });
    await app.init();
    try {
      expect([app.get("A"), app.get("B")]).toEqual(["A!", "B!"]);
    } finally {
      await app.close();
    }
  });

  it("Container.registerProvider accepts `provide`", () => {
    const container = Container.createTestInstance();
    container.registerProvider({ provide: "answer", useValue: 42 });
    expect(container.resolve("answer")).toBe(42);
  });

  it("a provider with neither token nor a known recipe fails the start naming it", async () => {
    @Module({ providers: [{ provide: "BROKEN" } as never] })
    class AppModule {}
    const error = await failedStart(AppModule);
    expect(error.message).toContain('Provider "BROKEN" in AppModule');
    expect(error.message).toContain("useExisting");
  });
});

describe("useExisting", () => {
  it("aliases another token: the same instance, built and initialised once", async () => {
    let inits = 0;
    @Injectable()
    class ConsoleLogger implements OnModuleInit {
      onModuleInit() {
        inits++;
      }
    }
    @Injectable()
    class UsesAlias {
      constructor(@Inject("Logger") readonly logger: unknown) {}
    }
    @Module({
      providers: [ConsoleLogger, { provide: "Logger", useExisting: ConsoleLogger }, UsesAlias],
    })
    class AppModule {}

    const app = await init(AppModule);
    expect(app.get("Logger")).toBe(app.get(ConsoleLogger));
    expect(app.get(UsesAlias).logger).toBe(app.get(ConsoleLogger));
    expect(inits).toBe(1);
  });

  it("an alias of a request-scoped provider is the same instance within a request", async () => {
    @Injectable({ scope: Scope.REQUEST })
    class RequestBag {
      readonly id = Math.random();
    }
    @Controller("bag")
    class BagController {
      constructor(
        readonly bag: RequestBag,
        @Inject("Bag") readonly alias: RequestBag,
      ) {}
      @Get()
      same() {
        return { same: this.bag === this.alias, id: this.bag.id };
      }
    }
    @Module({
      controllers: [BagController],
      providers: [RequestBag, { provide: "Bag", useExisting: RequestBag }],
    })
    class AppModule {}

    const app = await listen(AppModule);
    const first = await get(app, "/bag");
    const second = await get(app, "/bag");
    expect(first.body).toMatchObject({ same: true });
    expect(second.body).toMatchObject({ same: true });
    expect((first.body as { id: number }).id).not.toBe((second.body as { id: number }).id);
  });

  it("an alias of a token no one provides fails the start naming both", async () => {
    @Module({ providers: [{ provide: "Alias", useExisting: "Missing" }] })
    class AppModule {}
    const error = await failedStart(AppModule);
    expect(error.message).toContain('Cannot resolve useExisting ("Missing") of "Alias"');
  });
});

describe("@Optional()", () => {
  it("injects undefined for a missing dependency instead of failing the start", async () => {
    @Injectable()
    class HttpClient {
      constructor(@Optional() @Inject("HTTP_OPTIONS") readonly options?: { timeout: number }) {}
      timeout() {
        return this.options?.timeout ?? 5000;
      }
    }
    @Controller("client")
    class ClientController {
      constructor(readonly client: HttpClient) {}
      @Get()
      timeout() {
        return { timeout: this.client.timeout() };
      }
    }
    @Module({ controllers: [ClientController], providers: [HttpClient] })
    class AppModule {}

    const app = await listen(AppModule);
    const response = await get(app, "/client");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ timeout: 5000 });
  });

  it("injects the provider when there is one", async () => {
    @Injectable()
    class HttpClient {
      constructor(@Optional() @Inject("HTTP_OPTIONS") readonly options?: { timeout: number }) {}
    }
    @Module({ providers: [HttpClient, { provide: "HTTP_OPTIONS", useValue: { timeout: 10 } }] })
    class AppModule {}
    const app = await init(AppModule);
    expect(app.get(HttpClient).options).toEqual({ timeout: 10 });
  });

  it("without @Optional() the missing dependency still fails the start", async () => {
    @Injectable()
    class HttpClient {
      constructor(@Inject("HTTP_OPTIONS") readonly options?: { timeout: number }) {}
    }
    @Module({ providers: [HttpClient] })
    class AppModule {}
    const error = await failedStart(AppModule);
    expect(error.message).toContain('parameter #0 ("HTTP_OPTIONS") of HttpClient');
    expect(error.message).toContain("@Optional()");
  });

  it("optional factory dependencies: { token, optional: true }", async () => {
    @Module({
      providers: [
        {
          provide: "URL",
          useFactory: (host?: string) => `http://${host ?? "localhost"}`,
          inject: [{ token: "HOST", optional: true }],
        },
      ],
    })
    class AppModule {}
    const app = await init(AppModule);
    expect(app.get("URL")).toBe("http://localhost");
  });

  it("property injection, optional or not", async () => {
    @Injectable()
    class Config {
      readonly name = "config";
    }
    @Injectable()
    class UsesProperties {
      @Inject() readonly config!: Config;
      @Inject("NAME") readonly name!: string;
      @Optional() @Inject("MISSING") readonly missing?: string;
    }
    @Module({ providers: [Config, UsesProperties, { provide: "NAME", useValue: "ada" }] })
    class AppModule {}
    const app = await init(AppModule);
    const instance = app.get(UsesProperties);
    expect(instance.config).toBe(app.get(Config));
    expect(instance.name).toBe("ada");
    expect(instance.missing).toBeUndefined();
  });

  it("a property without a token fails the start naming it", async () => {
    @Injectable()
    class UsesInterface {
      @Inject() readonly repository!: { find(): void };
    }
    @Module({ providers: [UsesInterface] })
    class AppModule {}
    const error = await failedStart(AppModule);
    expect(error.message).toContain("property repository of UsesInterface");
  });
});

describe("@Global()", () => {
  @Injectable()
  class ConfigService {
    readonly env = "test";
  }
  @Global()
  @Module({ providers: [ConfigService], exports: [ConfigService] })
  class ConfigModule {}

  @Module({ providers: [ConfigService], exports: [ConfigService] })
  class NotGlobalConfigModule {}

  it("makes a module's exports visible in modules that do not import it", async () => {
    @Controller("env")
    class EnvController {
      constructor(readonly config: ConfigService) {}
      @Get()
      env() {
        return { env: this.config.env };
      }
    }
    @Module({ controllers: [EnvController] })
    class FeatureModule {}
    @Module({ imports: [ConfigModule, FeatureModule] })
    class AppModule {}

    const app = await listen(AppModule);
    const response = await get(app, "/env");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ env: "test" });
  });

  it("without @Global() the feature module must import it", async () => {
    @Injectable()
    class NeedsConfig {
      constructor(readonly config: ConfigService) {}
    }
    @Module({ providers: [NeedsConfig] })
    class FeatureModule {}
    @Module({ imports: [NotGlobalConfigModule, FeatureModule] })
    class AppModule {}
    const error = await failedStart(AppModule);
    expect(error.message).toContain("parameter #0 (ConfigService) of NeedsConfig");
  });
});

describe("forwardRef", () => {
  it("imports: [forwardRef(() => M)] resolves modules importing each other", async () => {
    @Injectable()
    class CatsService {
      name() {
        return "cats";
      }
    }
    @Module({
      imports: [forwardRef(() => DogsModule)],
      providers: [CatsService],
      exports: [CatsService],
    })
    class CatsModule {}
    @Injectable()
    class DogsService {
      constructor(readonly cats: CatsService) {}
    }
    @Controller("dogs")
    class DogsController {
      constructor(readonly dogs: DogsService) {}
      @Get()
      friends() {
        return { friend: this.dogs.cats.name() };
      }
    }
    @Module({
      imports: [forwardRef(() => CatsModule)],
      controllers: [DogsController],
      providers: [DogsService],
      exports: [DogsService],
    })
    class DogsModule {}
    @Module({ imports: [CatsModule] })
    class AppModule {}

    const app = await listen(AppModule);
    const response = await get(app, "/dogs");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ friend: "cats" });
  });

  it("an import that is undefined (module files importing each other) names forwardRef", async () => {
    @Module({ imports: [undefined as never] })
    class AppModule {}
    const error = await failedStart(AppModule);
    expect(error.message).toContain("AppModule imports undefined (imports[0])");
    expect(error.message).toContain("forwardRef(() => TheModule)");
  });

  it("@Inject(forwardRef(() => X)) on both sides: each singleton gets the other", async () => {
    // Hooks run once both are constructed, whatever the order.
    @Controller("cycle")
    class CycleController {
      constructor(
        readonly cats: CatsService,
        readonly common: CommonService,
      ) {}
      @Get()
      both() {
        return { label: this.common.label(), meow: this.cats.common.cats.meow() };
      }
    }
    @Module({ controllers: [CycleController], providers: [CatsService, CommonService] })
    class AppModule {}

    const app = await listen(AppModule);
    expect(app.get(CatsService).common).toBe(app.get(CommonService));
    expect(app.get(CommonService).cats).toBe(app.get(CatsService));
    expect(app.get(CommonService)).toBeInstanceOf(CommonService);
    expect(app.get(CatsService)).toBeInstanceOf(CatsService);
    expect([...initOrder].sort()).toEqual(["cats sees common:meow", "common sees meow"]);
    const response = await get(app, "/cycle");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ label: "common:meow", meow: "meow" });
  });

  it("a cycle without forwardRef fails the start naming the classes and forwardRef", async () => {
    @Injectable()
    class B {
      constructor(@Inject("A") readonly a: unknown) {}
    }
    @Injectable()
    class A {
      constructor(readonly b: B) {}
    }
    @Module({ providers: [A, B, { provide: "A", useExisting: A }] })
    class AppModule {}
    const error = await failedStart(AppModule);
    expect(error.message).toMatch(/^A circular dependency has been detected inside "A"\./);
    expect(error.message).toContain("forwardRef");
    expect(error.path).toBe('Dependency cycle: A -> B -> "A" -> A (in AppModule)');
  });

  it("a forwardRef cycle through a request-scoped class fails the start naming it", async () => {
    @Injectable({ scope: Scope.REQUEST })
    class Left {
      constructor(@Inject(forwardRef(() => Right)) readonly right: unknown) {}
    }
    @Injectable()
    class Right {
      constructor(@Inject(forwardRef(() => Left)) readonly left: unknown) {}
    }
    @Module({ providers: [Left, Right] })
    class AppModule {}
    const error = await failedStart(AppModule);
    expect(error.message).toContain("Dependency cycle through forwardRef: Left -> Right -> Left");
    expect(error.message).toContain("request-scoped");
  });

  it("a forwardRef cycle through a factory fails the start naming it", async () => {
    @Injectable()
    class UsesFactory {
      constructor(@Inject(forwardRef(() => "FACTORY")) readonly made: unknown) {}
    }
    @Module({
      providers: [
        { provide: "FACTORY", useFactory: (u: UsesFactory) => ({ u }), inject: [UsesFactory] },
        UsesFactory,
      ],
    })
    class AppModule {}
    const error = await failedStart(AppModule);
    expect(error.message).toContain(
      'Dependency cycle through forwardRef: "FACTORY" -> UsesFactory -> "FACTORY"',
    );
    expect(error.message).toContain("a factory, a value or an alias");
  });

  it("a forwardRef returning undefined fails the start naming the parameter", async () => {
    @Injectable()
    class Broken {
      constructor(@Inject(forwardRef(() => undefined as never)) readonly missing: unknown) {}
    }
    @Module({ providers: [Broken] })
    class AppModule {}
    const error = await failedStart(AppModule);
    expect(error.message).toContain("parameter #0 of Broken");
    expect(error.message).toContain("forwardRef(() => ...) returns undefined");
  });
});

describe("REQUEST", () => {
  @Injectable({ scope: Scope.REQUEST })
  class RequestInfo {
    constructor(@Inject(REQUEST) readonly request: RequestContext) {}
    agent() {
      return this.request.headers["user-agent-id"];
    }
  }
  /** Not declared request-scoped: it becomes so by injecting REQUEST through RequestInfo. */
  @Injectable()
  class Greeting {
    constructor(readonly info: RequestInfo) {}
    text() {
      return `hello ${this.info.agent()} at ${this.info.request.url}`;
    }
  }

  it("injects the current request's RequestContext (what @Req() injects)", async () => {
    @Controller("who")
    class WhoController {
      constructor(readonly greeting: Greeting) {}
      @Get()
      who() {
        return { text: this.greeting.text() };
      }
    }
    @Module({ controllers: [WhoController], providers: [RequestInfo, Greeting] })
    class AppModule {}

    const app = await listen(AppModule);
    const [a, b] = await Promise.all([
      get(app, "/who?x=1", { "user-agent-id": "a" }),
      get(app, "/who?x=2", { "user-agent-id": "b" }),
    ]);
    expect(a.body).toEqual({ text: "hello a at /who?x=1" });
    expect(b.body).toEqual({ text: "hello b at /who?x=2" });
  });

  it("sees the user a guard attached to the request", async () => {
    @Injectable()
    class AuthGuard implements CanActivate {
      canActivate(context: ExecutionContext) {
        context.user = { id: 7, username: "ada", role: "admin" };
        return true;
      }
    }
    @Injectable({ scope: Scope.REQUEST })
    class CurrentUser {
      constructor(@Inject(REQUEST) readonly request: RequestContext) {}
    }
    @Controller("me")
    class MeController {
      constructor(readonly current: CurrentUser) {}
      @Get()
      me() {
        return { user: this.current.request.user?.username };
      }
    }
    @Module({
      controllers: [MeController],
      providers: [CurrentUser, { provide: APP_GUARD, useClass: AuthGuard }],
    })
    class AppModule {}
    const app = await listen(AppModule);
    expect((await get(app, "/me")).body).toEqual({ user: "ada" });
  });

  it("outside an HTTP request (Container request ids) it is an error naming REQUEST", () => {
    const container = Container.createTestInstance();
    container.registerProvider(RequestInfo);
    expect(() => container.resolve(RequestInfo, "r1")).toThrow(
      /REQUEST is injected outside an HTTP request/,
    );
  });
});

describe("APP_GUARD, APP_INTERCEPTOR, APP_PIPE, APP_FILTER", () => {
  @Injectable()
  class ApiKeys {
    readonly valid = new Set(["k1"]);
  }

  /** Resolved through DI in its module: it injects ApiKeys. */
  @Injectable()
  class ApiKeyGuard implements CanActivate {
    constructor(private readonly keys: ApiKeys) {}
    canActivate(context: ExecutionContext) {
      return this.keys.valid.has(context.headers["x-api-key"] ?? "");
    }
  }

  @Injectable()
  class SecondGuard implements CanActivate {
    canActivate(context: ExecutionContext) {
      return context.headers["x-block"] !== "1";
    }
  }

  @Injectable()
  class EnvelopeInterceptor {
    constructor(@Inject("ENVELOPE") private readonly key: string) {}
    async intercept(_context: ExecutionContext, next: CallHandler) {
      return { [this.key]: await next() };
    }
  }

  @Injectable()
  class UpperPipe implements PipeTransform {
    transform(value: unknown) {
      return typeof value === "string" ? value.toUpperCase() : value;
    }
  }

  class Teapot extends Error {}

  @Catch(Teapot)
  @Injectable()
  class TeapotFilter implements ExceptionFilter<Teapot> {
    constructor(@Inject("TEAPOT_STATUS") private readonly status: number) {}
    catch(_error: Teapot, host: ArgumentsHost) {
      host.switchToHttp().getResponse().status(this.status).json({ teapot: true });
    }
  }

  @Controller("things")
  class ThingsController {
    @Get()
    list(@Query("name") name: string) {
      return { name };
    }
    @Get("teapot")
    teapot(): never {
      throw new Teapot("short and stout");
    }
  }
  @Module({ controllers: [ThingsController] })
  class ThingsModule {}

  /** Registers the app-wide enhancers; the controller lives in another module. */
  @Module({
    providers: [
      ApiKeys,
      { provide: APP_GUARD, useClass: ApiKeyGuard },
      { provide: APP_GUARD, useClass: SecondGuard },
      { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
      { provide: "ENVELOPE", useValue: "data" },
      { provide: APP_PIPE, useClass: UpperPipe },
      { provide: APP_FILTER, useClass: TeapotFilter },
      { provide: "TEAPOT_STATUS", useValue: 418 },
    ],
  })
  class CoreModule {}
  @Module({ imports: [CoreModule, ThingsModule] })
  class AppModule {}

  it("a guard from any module guards every route, with its dependencies injected", async () => {
    const app = await listen(AppModule);
    const denied = await get(app, "/things?name=x");
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ statusCode: 403 });
    expect(denied.text).not.toContain("x");
    const allowed = await get(app, "/things?name=x", { "x-api-key": "k1" });
    expect(allowed.status).toBe(200);
  });

  it("several APP_GUARDs all run", async () => {
    const app = await listen(AppModule);
    const blocked = await get(app, "/things?name=x", { "x-api-key": "k1", "x-block": "1" });
    expect(blocked.status).toBe(403);
  });

  it("the interceptor and the pipe apply to every route", async () => {
    const app = await listen(AppModule);
    const response = await get(app, "/things?name=ada", { "x-api-key": "k1" });
    expect(response.body).toEqual({ data: { name: "ADA" } });
  });

  it("the filter catches on every route", async () => {
    const app = await listen(AppModule);
    const response = await get(app, "/things/teapot", { "x-api-key": "k1" });
    expect(response.status).toBe(418);
    expect(response.body).toEqual({ teapot: true });
    expect(response.text).not.toContain("short and stout");
  });

  it("APP_* providers are not injectable by their token (each is its own provider)", async () => {
    @Injectable()
    class WantsGuard {
      constructor(@Inject(APP_GUARD) readonly guard: unknown) {}
    }
    @Module({ providers: [WantsGuard, { provide: APP_GUARD, useClass: SecondGuard }] })
    class BadModule {}
    const error = await failedStart(BadModule);
    expect(error.message).toContain('parameter #0 ("APP_GUARD") of WantsGuard');
  });

  it("an APP_GUARD whose dependency is missing fails the start naming it", async () => {
    @Module({ providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }] })
    class BadModule {}
    const error = await failedStart(BadModule);
    expect(error.message).toContain("parameter #0 (ApiKeys) of APP_GUARD (ApiKeyGuard)");
  });

  it("an APP_PIPE whose useValue is undefined fails the start instead of every request", async () => {
    @Module({ imports: [ThingsModule], providers: [{ provide: APP_PIPE, useValue: undefined }] })
    class BadModule {}
    const error = await failedStart(BadModule);
    expect(error.message).toContain("APP_PIPE in BadModule has useValue undefined");
  });

  it("a request-scoped APP_GUARD is made once per request", async () => {
    const seen: Array<unknown> = [];
    @Injectable({ scope: Scope.REQUEST })
    class PerRequestGuard implements CanActivate {
      constructor(@Inject(REQUEST) private readonly request: RequestContext) {}
      canActivate() {
        seen.push(this);
        return this.request.headers["x-api-key"] === "k1";
      }
    }
    @Module({
      imports: [ThingsModule],
      providers: [{ provide: APP_GUARD, useClass: PerRequestGuard }],
    })
    class PerRequestModule {}
    const app = await listen(PerRequestModule);
    expect((await get(app, "/things?name=a")).status).toBe(403);
    expect((await get(app, "/things?name=a", { "x-api-key": "k1" })).status).toBe(200);
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toBe(seen[1]);
  });
});
