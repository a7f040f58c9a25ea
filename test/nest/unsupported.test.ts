import { describe, expect, it } from "vitest";
import {
  ApplicationConfig,
  ConfigurableModuleBuilder,
  ContextIdFactory,
  Controller,
  DiscoveryService,
  INQUIRER,
  Inject,
  Injectable,
  LazyModuleLoader,
  Module,
  NestFactory,
  StrataApp,
  UnknownDependenciesException,
} from "../../src/index.js";

const startFailure = async (module: Function) => {
  try {
    await new StrataApp(module as never).init();
  } catch (error) {
    return error as Error;
  }
  throw new Error("the app started");
};

describe("NestJS APIs Strata does not support fail clearly, saying what to use", () => {
  it("injecting INQUIRER, LazyModuleLoader, ApplicationConfig or DiscoveryService fails the start", async () => {
    @Injectable()
    class Logger {
      constructor(@Inject(INQUIRER) readonly parent: unknown) {}
    }
    @Module({ providers: [Logger] })
    class WithInquirer {}
    const inquirer = await startFailure(WithInquirer);
    expect(inquirer).toBeInstanceOf(UnknownDependenciesException);
    expect(inquirer.message).toBe(
      "Cannot resolve parameter #0 of Logger in WithInquirer: INQUIRER is not supported: Strata builds transient providers without their consumer. Pass what the provider needs explicitly (a useFactory with inject, or a method parameter).",
    );

    for (const [token, says] of [
      [
        LazyModuleLoader,
        "LazyModuleLoader is not supported: Strata compiles the whole module graph at startup",
      ],
      [ApplicationConfig, "ApplicationConfig is not supported: configure the app on the app"],
      [DiscoveryService, "DiscoveryService is not supported: Strata has no provider discovery"],
    ] as const) {
      @Controller()
      class Needs {
        constructor(@Inject(token) readonly needed: unknown) {}
      }
      @Module({ controllers: [Needs] })
      class NeedsModule {}
      expect((await startFailure(NeedsModule)).message).toContain(says);
    }
  });

  it("their builders and app methods throw when called", async () => {
    expect(() => new ConfigurableModuleBuilder()).toThrow(
      "ConfigurableModuleBuilder is not supported: write a static forRoot(options)",
    );
    expect(() => DiscoveryService.createDecorator()).toThrow(
      "DiscoveryService.createDecorator(): DiscoveryService is not supported",
    );
    expect(() => ContextIdFactory.apply({})).toThrow(
      "ContextIdFactory.apply() (durable providers) is not supported",
    );
    @Module({})
    class Empty {}
    const app = await NestFactory.create(Empty);
    try {
      expect(() => app.setLocal("title", "x")).toThrow("app.setLocal() is not supported");
      expect(() => app.connectMicroservice({})).toThrow(
        "app.connectMicroservice() is not supported",
      );
    } finally {
      await app.close();
    }
  });
});
