import * as Effect from "effect/Effect";
import { describe, expect, it, vi } from "vitest";
import { Container, Inject, Injectable, Scope } from "../../src/index.js";

describe("Container", () => {
  it("getInstance returns one process-wide container", () => {
    expect(Container.getInstance()).toBe(Container.getInstance());
    expect(Container.getInstance()).toBeInstanceOf(Container);
  });

  it("createTestInstance is isolated from the default container and from each other", () => {
    const a = Container.createTestInstance();
    const b = Container.createTestInstance();
    expect(a).not.toBe(Container.getInstance());
    expect(a).not.toBe(b);
    a.register("greeting", "hello from a");
    expect(a.resolve<string>("greeting")).toBe("hello from a");
    expect(() => b.resolve("greeting")).toThrow(/No provider registered for "greeting"/);
    expect(() => Container.getInstance().resolve("greeting")).toThrow(/No provider/);
  });

  it("register(token, instance) hands the same instance back", () => {
    const container = Container.createTestInstance();
    const instance = { n: 1 };
    const token = Symbol("thing");
    container.register(token, instance);
    expect(container.resolve(token)).toBe(instance);
    class Logger {}
    const logger = new Logger();
    container.register(Logger, logger);
    expect(container.resolve(Logger)).toBe(logger);
  });

  it("registerProvider accepts a class, useClass and useFactory", () => {
    @Injectable()
    class Config {
      readonly url = "db://local";
    }
    abstract class Store {
      abstract name(): string;
    }
    @Injectable()
    class MemoryStore extends Store {
      constructor(readonly config: Config) {
        super();
      }
      name() {
        return `memory(${this.config.url})`;
      }
    }
    const container = Container.createTestInstance();
    container.registerProvider(Config);
    container.registerProvider({ token: Store, useClass: MemoryStore });
    container.registerProvider({
      token: "label",
      useFactory: (store: Store) => `label:${store.name()}`,
      inject: [Store],
    });
    expect(container.resolve(Config)).toBeInstanceOf(Config);
    expect(container.resolve(Store)).toBeInstanceOf(MemoryStore);
    expect(container.resolve(Store).name()).toBe("memory(db://local)");
    expect(container.resolve<string>("label")).toBe("label:memory(db://local)");
    // Dependencies are wired to the same singletons.
    expect((container.resolve(Store) as MemoryStore).config).toBe(container.resolve(Config));
  });

  it("resolves a singleton to one instance and a transient to a new one each time", () => {
    @Injectable()
    class Single {}
    @Injectable({ scope: Scope.TRANSIENT })
    class Many {}
    const container = Container.createTestInstance();
    container.registerProvider(Single);
    container.registerProvider(Many);
    expect(container.resolve(Single)).toBe(container.resolve(Single));
    expect(container.resolve(Many)).toBeInstanceOf(Many);
    expect(container.resolve(Many)).not.toBe(container.resolve(Many));
  });

  it("keeps one request-scoped instance per request id and releases it on clearRequestScope", () => {
    const log: Array<string> = [];
    let created = 0;
    @Injectable()
    class Shared {}
    @Injectable({ scope: Scope.REQUEST })
    class PerRequest {
      readonly n = ++created;
      constructor(readonly shared: Shared) {}
      onModuleDestroy() {
        log.push(`destroy ${this.n}`);
      }
    }
    @Injectable()
    class DependsOnRequest {
      constructor(readonly perRequest: PerRequest) {}
    }
    const container = Container.createTestInstance();
    container.registerProvider(Shared);
    container.registerProvider(PerRequest);
    container.registerProvider(DependsOnRequest);

    const a1 = container.resolve(PerRequest, "a");
    const a2 = container.resolve(PerRequest, "a");
    const b = container.resolve(PerRequest, "b");
    expect(a1).toBe(a2);
    expect(a1).not.toBe(b);
    expect(a1.shared).toBe(b.shared);
    // Scope bubbling: the dependent is request-scoped too, and sees the request's instance.
    const dependent = container.resolve(DependsOnRequest, "a");
    expect(dependent.perRequest).toBe(a1);
    expect(container.resolve(DependsOnRequest, "a")).toBe(dependent);
    expect(() => container.resolve(DependsOnRequest)).toThrow(/request-scoped/);

    container.clearRequestScope("a");
    expect(log).toEqual([`destroy ${a1.n}`]);
    const a3 = container.resolve(PerRequest, "a");
    expect(a3).not.toBe(a1);
    expect(container.resolve(PerRequest, "b")).toBe(b);
    container.clearRequestScope("b");
    expect(log).toEqual([`destroy ${a1.n}`, `destroy ${b.n}`]);
    // Clearing an unknown id is a no-op.
    expect(() => container.clearRequestScope("never-used")).not.toThrow();
  });

  it("clearRequestScope accepts an async onModuleDestroy, and dispose awaits it", async () => {
    const log: Array<string> = [];
    @Injectable({ scope: Scope.REQUEST })
    class Session {
      async onModuleDestroy() {
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push("session closed");
      }
    }
    const container = Container.createTestInstance();
    container.registerProvider(Session);
    container.resolve(Session, "r1");
    expect(() => container.clearRequestScope("r1")).not.toThrow();
    await vi.waitFor(() => expect(log).toEqual(["session closed"]));

    container.resolve(Session, "r2");
    await container.dispose();
    expect(log).toEqual(["session closed", "session closed"]);
  });

  it("throws a clear error for an unknown token", () => {
    const container = Container.createTestInstance();
    class Unknown {}
    expect(() => container.resolve(Unknown)).toThrow("No provider registered for Unknown");
    expect(() => container.resolve(Symbol("nope"))).toThrow(
      "No provider registered for Symbol(nope)",
    );
  });

  it("throws when a request-scoped token is resolved without a request id", () => {
    @Injectable({ scope: Scope.REQUEST })
    class PerRequest {}
    const container = Container.createTestInstance();
    container.registerProvider(PerRequest);
    expect(() => container.resolve(PerRequest)).toThrow(
      "PerRequest is request-scoped: resolve it with a request id.",
    );
  });

  it("asks for resolveAsync when a factory is asynchronous", async () => {
    const container = Container.createTestInstance();
    container.registerProvider({
      token: "remote",
      useFactory: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { connected: true };
      },
    });
    container.registerProvider({
      token: "effectful",
      useFactory: () => Effect.as(Effect.sleep("5 millis"), "slept"),
    });
    expect(() => container.resolve("remote")).toThrow(
      '"remote" is created asynchronously: use resolveAsync()',
    );
    await expect(container.resolveAsync("remote")).resolves.toEqual({ connected: true });
    await expect(container.resolveAsync<string>("effectful")).resolves.toBe("slept");
    // Once built, the singleton is available synchronously as well.
    expect(container.resolve("remote")).toEqual({ connected: true });
  });

  it("shares the build a synchronous resolve left running with resolveAsync", async () => {
    const log: Array<string> = [];
    let created = 0;
    @Injectable()
    class Resource {
      readonly n = ++created;
      onModuleDestroy() {
        log.push(`destroy ${this.n}`);
      }
    }
    const container = Container.createTestInstance();
    container.registerProvider(Resource);
    container.registerProvider({
      token: "remote",
      useFactory: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return "connected";
      },
    });
    expect(() => container.resolve("remote")).toThrow(/resolveAsync/);
    await expect(container.resolveAsync("remote")).resolves.toBe("connected");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(created).toBe(1);
    expect(container.resolve(Resource).n).toBe(1);
    await container.dispose();
    expect(log).toEqual(["destroy 1"]);
  });

  it("resolves a synchronous Effect factory synchronously", () => {
    const container = Container.createTestInstance();
    container.registerProvider({ token: "n", useFactory: () => Effect.succeed(7) });
    expect(container.resolve<number>("n")).toBe(7);
  });

  it("reports a missing dependency of a registered provider", () => {
    @Injectable()
    class NeedsToken {
      constructor(@Inject("missing") readonly value: unknown) {}
    }
    const container = Container.createTestInstance();
    container.registerProvider(NeedsToken);
    expect(() => container.resolve(NeedsToken)).toThrow(/parameter #0 \("missing"\) of NeedsToken/);
  });

  it("rebuilds after a new registration and dispose runs onModuleDestroy", async () => {
    const log: Array<string> = [];
    @Injectable()
    class Resource {
      onModuleDestroy() {
        log.push("destroy");
      }
    }
    const container = Container.createTestInstance();
    container.registerProvider(Resource);
    const first = container.resolve(Resource);
    container.register("extra", 1);
    expect(container.resolve<number>("extra")).toBe(1);
    const second = container.resolve(Resource);
    expect(second).not.toBe(first);
    await container.dispose();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual(["destroy", "destroy"]);
  });
});
