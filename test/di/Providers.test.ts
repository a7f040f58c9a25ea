import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import { SERVICE_REPOSITORY_METADATA } from "../../src/di/Injectable.js";
import { Controller, Get, Inject, Injectable, Module, Scope, Service } from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { appsClosedAfterEach } from "../support/apps.js";

const { init, listen } = appsClosedAfterEach();

abstract class Greeter {
  abstract greet(name: string): string;
}

@Injectable()
class EnglishGreeter extends Greeter {
  greet(name: string) {
    return `Hello, ${name}`;
  }
}

@Injectable()
class Config {
  readonly prefix = "cfg";
}

const API_URL = "API_URL";
const CLOCK = Symbol("clock");
const SYNC = "SYNC";
const ASYNC = "ASYNC";
const EFFECT = "EFFECT";

interface Clock {
  now(): number;
}

describe("provider kinds", () => {
  @Injectable()
  class Consumer {
    constructor(
      readonly greeter: Greeter,
      @Inject(API_URL) readonly url: string,
      @Inject(CLOCK) readonly clock: Clock,
      @Inject(SYNC) readonly sync: string,
      @Inject(ASYNC) readonly async: string,
      @Inject(EFFECT) readonly effect: { readonly url: string },
    ) {}
  }

  @Controller("providers")
  class ProvidersController {
    constructor(readonly consumer: Consumer) {}

    @Get()
    get() {
      const c = this.consumer;
      return {
        greeting: c.greeter.greet("Ada"),
        url: c.url,
        now: c.clock.now(),
        sync: c.sync,
        async: c.async,
        effect: c.effect.url,
      };
    }
  }

  const clock: Clock = { now: () => 42 };

  @Module({
    controllers: [ProvidersController],
    providers: [
      Config,
      Consumer,
      { token: Greeter, useClass: EnglishGreeter },
      { token: API_URL, useValue: "https://api.example" },
      { token: CLOCK, useValue: clock },
      {
        token: SYNC,
        useFactory: (config: Config, url: string) => `${config.prefix}:${url}`,
        inject: [Config, API_URL],
      },
      {
        token: ASYNC,
        useFactory: async (sync: string) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return `async(${sync})`;
        },
        inject: [SYNC],
      },
      {
        token: EFFECT,
        useFactory: (url: string) => Effect.succeed({ url: `effect(${url})` }),
        inject: [API_URL],
      },
    ],
  })
  class AppModule {}

  it("builds useClass, useValue and useFactory providers (sync, Promise, Effect)", async () => {
    const app = await init(AppModule);
    const consumer = app.get(Consumer);
    expect(consumer.greeter).toBeInstanceOf(EnglishGreeter);
    expect(consumer.url).toBe("https://api.example");
    expect(consumer.clock).toBe(clock);
    expect(consumer.sync).toBe("cfg:https://api.example");
    expect(consumer.async).toBe("async(cfg:https://api.example)");
    expect(consumer.effect).toEqual({ url: "effect(https://api.example)" });
    expect(app.get<string>(API_URL)).toBe("https://api.example");
    expect(app.get<Clock>(CLOCK)).toBe(clock);
    expect(app.get(Greeter)).toBe(consumer.greeter);
  });

  it("serves them over HTTP", async () => {
    const app = await listen(AppModule);
    const response = await request(app, "GET", "/providers");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      greeting: "Hello, Ada",
      url: "https://api.example",
      now: 42,
      sync: "cfg:https://api.example",
      async: "async(cfg:https://api.example)",
      effect: "effect(https://api.example)",
    });
  });

  it("runs a factory once for a singleton and per injection when transient", async () => {
    let calls = 0;
    @Injectable()
    class A {
      constructor(@Inject("n") readonly n: number) {}
    }
    @Injectable()
    class B {
      constructor(@Inject("n") readonly n: number) {}
    }
    @Module({ providers: [A, B, { token: "n", useFactory: () => ++calls }] })
    class SingletonModule {}
    const app = await init(SingletonModule);
    expect(app.get(A).n).toBe(app.get(B).n);
    expect(calls).toBe(1);

    let transientCalls = 0;
    @Module({
      providers: [A, B, { token: "n", useFactory: () => ++transientCalls, scope: Scope.TRANSIENT }],
    })
    class TransientModule {}
    const transient = await init(TransientModule);
    expect(transient.get(A).n).not.toBe(transient.get(B).n);
  });
});

describe("@Inject", () => {
  @Injectable()
  class Real {
    readonly kind: string = "real";
  }

  @Injectable()
  class Other {
    readonly kind: string = "other";
  }

  @Injectable()
  class Explicit {
    constructor(@Inject(Other) readonly dep: Real) {}
  }

  @Injectable()
  class ByToken {
    constructor(@Inject("real-by-name") readonly dep: Real) {}
  }

  @Module({
    providers: [Real, Other, Explicit, ByToken, { token: "real-by-name", useValue: { kind: "v" } }],
  })
  class AppModule {}

  it("wins over the emitted parameter type", async () => {
    const app = await init(AppModule);
    expect(app.get(Explicit).dep).toBeInstanceOf(Other);
    expect(app.get(Explicit).dep).toBe(app.get(Other));
    expect(app.get(ByToken).dep).toEqual({ kind: "v" });
  });

  it("without a token, injects the emitted type", async () => {
    @Injectable()
    class Plain {
      constructor(@Inject() readonly dep: Real) {}
    }
    @Module({ providers: [Real, Plain] })
    class PlainModule {}
    const app = await init(PlainModule);
    expect(app.get(Plain).dep).toBe(app.get(Real));
  });
});

describe("@Service", () => {
  @Service({ repository: "users" })
  class UsersService {
    readonly id = Math.random();
  }

  @Service({ scope: "transient" })
  class TransientService {}

  @Injectable()
  class UsesServices {
    constructor(
      readonly users: UsersService,
      readonly t: TransientService,
    ) {}
  }

  @Module({ providers: [UsersService, TransientService, UsesServices] })
  class AppModule {}

  it("is an alias of @Injectable that records repository metadata", async () => {
    const app = await init(AppModule);
    expect(app.get(UsesServices).users).toBe(app.get(UsersService));
    expect(app.get(TransientService)).not.toBe(app.get(TransientService));
    expect(Reflect.getMetadata(SERVICE_REPOSITORY_METADATA, UsersService)).toBe("users");
  });
});
