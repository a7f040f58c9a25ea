import { describe, expect, it } from "vitest";
import { Controller, Get, Inject, Injectable, Module, Scope } from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { appsClosedAfterEach } from "../support/apps.js";

let nextId = 0;
const { listen: start } = appsClosedAfterEach();

/** A promise that many waiters share; opened once. */
const latch = () => {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
};

describe("singleton and transient scopes", () => {
  @Injectable()
  class Counter {
    readonly id = ++nextId;
  }

  @Injectable({ scope: Scope.TRANSIENT })
  class Fresh {
    readonly id = ++nextId;
  }

  @Injectable()
  class ConsumerA {
    constructor(
      readonly counter: Counter,
      readonly fresh: Fresh,
    ) {}
  }

  @Injectable()
  class ConsumerB {
    constructor(
      readonly counter: Counter,
      readonly fresh: Fresh,
    ) {}
  }

  @Controller("scopes")
  class ScopesController {
    constructor(
      readonly a: ConsumerA,
      readonly b: ConsumerB,
      readonly counter: Counter,
    ) {}

    @Get()
    get() {
      return { counter: this.counter.id, a: this.a.counter.id, b: this.b.counter.id };
    }
  }

  @Module({ controllers: [ScopesController], providers: [Counter, Fresh, ConsumerA, ConsumerB] })
  class AppModule {}

  it("shares a singleton across injections and requests", async () => {
    const app = await start(AppModule);
    const first = await request(app, "GET", "/scopes");
    const second = await request(app, "GET", "/scopes");
    expect(first.status).toBe(200);
    const body = first.body as { counter: number; a: number; b: number };
    expect(body.a).toBe(body.counter);
    expect(body.b).toBe(body.counter);
    expect(second.body).toEqual(first.body);
    expect(app.get(ConsumerA).counter).toBe(app.get(Counter));
    expect(app.get(ConsumerA).counter).toBe(app.get(ConsumerB).counter);
  });

  it("creates a new transient instance per injection", async () => {
    const app = await start(AppModule);
    const a = app.get(ConsumerA);
    const b = app.get(ConsumerB);
    expect(a.fresh).toBeInstanceOf(Fresh);
    expect(b.fresh).toBeInstanceOf(Fresh);
    expect(a.fresh).not.toBe(b.fresh);
    expect(app.get(Fresh)).not.toBe(app.get(Fresh));
  });
});

describe("request scope", () => {
  const log: Array<string> = [];
  let gate = latch();
  let arrived = 0;
  let bothArrived = latch();

  @Injectable()
  class Shared {
    readonly id = ++nextId;
  }

  @Injectable({ scope: Scope.REQUEST })
  class PerRequest {
    readonly id = ++nextId;
    constructor(readonly shared: Shared) {}
    onModuleDestroy() {
      log.push(`destroy ${this.id}`);
    }
  }

  @Controller("req")
  class RequestController {
    readonly id = ++nextId;
    constructor(
      readonly perRequest: PerRequest,
      readonly shared: Shared,
    ) {}

    @Get("slow")
    async slow() {
      arrived++;
      if (arrived === 2) bothArrived.open();
      await gate.promise;
      return this.describe();
    }

    @Get("fast")
    fast() {
      log.push(`handled ${this.perRequest.id}`);
      return this.describe();
    }

    private describe() {
      return {
        controller: this.id,
        perRequest: this.perRequest.id,
        shared: this.shared.id,
        viaPerRequest: this.perRequest.shared.id,
      };
    }
  }

  @Module({ controllers: [RequestController], providers: [Shared, PerRequest] })
  class AppModule {}

  type Body = { controller: number; perRequest: number; shared: number; viaPerRequest: number };

  it("gives two concurrent requests different request-scoped instances and one singleton", async () => {
    gate = latch();
    bothArrived = latch();
    arrived = 0;
    const app = await start(AppModule);
    const first = request(app, "GET", "/req/slow");
    const second = request(app, "GET", "/req/slow");
    // Both handlers are in flight at once before either may answer.
    await bothArrived.promise;
    expect(arrived).toBe(2);
    gate.open();
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const bodyA = a.body as Body;
    const bodyB = b.body as Body;
    expect(bodyA.perRequest).not.toBe(bodyB.perRequest);
    expect(bodyA.shared).toBe(bodyB.shared);
    expect(bodyA.viaPerRequest).toBe(bodyA.shared);
    expect(bodyB.viaPerRequest).toBe(bodyB.shared);
  });

  it("makes a controller that depends on a request-scoped provider request-scoped", async () => {
    const app = await start(AppModule);
    const a = (await request(app, "GET", "/req/fast")).body as Body;
    const b = (await request(app, "GET", "/req/fast")).body as Body;
    expect(a.controller).not.toBe(b.controller);
    expect(a.perRequest).not.toBe(b.perRequest);
    expect(a.shared).toBe(b.shared);
  });

  it("releases request-scoped instances after each response", async () => {
    const app = await start(AppModule);
    log.length = 0;
    const a = (await request(app, "GET", "/req/fast")).body as Body;
    await waitFor(() => log.includes(`destroy ${a.perRequest}`));
    const b = (await request(app, "GET", "/req/fast")).body as Body;
    await waitFor(() => log.includes(`destroy ${b.perRequest}`));
    expect(log).toEqual([
      `handled ${a.perRequest}`,
      `destroy ${a.perRequest}`,
      `handled ${b.perRequest}`,
      `destroy ${b.perRequest}`,
    ]);
  });

  it("refuses to hand out a request-scoped provider outside a request", async () => {
    const app = await start(AppModule);
    expect(() => app.get(PerRequest)).toThrow(/request-scoped/);
  });
});

const waitFor = async (condition: () => boolean, timeoutMs = 2000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe("request scope with a shared dependency", () => {
  it("creates a request-scoped provider once per request even when two dependencies share it", async () => {
    let created = 0;
    @Injectable({ scope: Scope.REQUEST })
    class RequestState {
      readonly id = ++created;
    }
    @Injectable()
    class Left {
      constructor(readonly state: RequestState) {}
    }
    @Injectable()
    class Right {
      constructor(readonly state: RequestState) {}
    }
    @Controller("diamond")
    class DiamondController {
      constructor(
        private readonly left: Left,
        private readonly right: Right,
      ) {}
      @Get()
      ids() {
        return { left: this.left.state.id, right: this.right.state.id };
      }
    }
    @Module({ controllers: [DiamondController], providers: [RequestState, Left, Right] })
    class DiamondModule {}

    const app = await start(DiamondModule);
    const first = await request(app, "GET", "/diamond");
    const second = await request(app, "GET", "/diamond");
    expect(first).toMatchObject({ status: 200, body: { left: 1, right: 1 } });
    expect(second).toMatchObject({ status: 200, body: { left: 2, right: 2 } });
    expect(created).toBe(2);
  });
});

describe("request scope with an asynchronous factory", () => {
  it("builds a class that depends on an async request-scoped factory once per request", async () => {
    let made = 0;
    const REQUEST_ID = Symbol("RequestId");
    @Injectable({ scope: Scope.REQUEST })
    class Greeter {
      constructor(@Inject(REQUEST_ID) readonly id: number) {}
    }
    @Injectable({ scope: Scope.REQUEST })
    class Envelope {
      constructor(
        readonly greeter: Greeter,
        @Inject(REQUEST_ID) readonly id: number,
      ) {}
    }
    @Controller("async-factory")
    class AsyncFactoryController {
      constructor(private readonly envelope: Envelope) {}
      @Get()
      ids() {
        return { envelope: this.envelope.id, greeter: this.envelope.greeter.id };
      }
    }
    @Module({
      controllers: [AsyncFactoryController],
      providers: [
        Greeter,
        Envelope,
        {
          token: REQUEST_ID,
          scope: Scope.REQUEST,
          useFactory: async () => {
            await new Promise((resolve) => setTimeout(resolve, 1));
            return ++made;
          },
        },
      ],
    })
    class AsyncFactoryModule {}

    const app = await start(AsyncFactoryModule);
    expect(await request(app, "GET", "/async-factory")).toMatchObject({
      status: 200,
      body: { envelope: 1, greeter: 1 },
    });
    expect(await request(app, "GET", "/async-factory")).toMatchObject({
      status: 200,
      body: { envelope: 2, greeter: 2 },
    });
    expect(made).toBe(2);
  });
});
