import { describe, expect, it } from "vitest";
import {
  INQUIRER,
  Inject,
  Injectable,
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
  it("injecting INQUIRER fails the start", async () => {
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
  });

  it("app methods Strata does not support throw when called", async () => {
    @Module({})
    class Empty {}
    const app = await NestFactory.create(Empty);
    try {
      expect(() => app.useBodyParser("json", { limit: 10 })).toThrow(
        "app.useBodyParser() is not supported: Strata parses JSON, urlencoded and text bodies itself; set their size limit with the bodyLimit option",
      );
      expect(() => app.setLocal("title", "x")).toThrow("app.setLocal() is not supported");
      expect(() => app.connectMicroservice({})).toThrow(
        "app.connectMicroservice() is not supported",
      );
    } finally {
      await app.close();
    }
  });
});
