import { describe, expect, it } from "vitest";
import { Module, NestFactory } from "../../src/index.js";

describe("NestJS APIs Strata does not support fail clearly, saying what to use", () => {
  it("app methods Strata does not support throw when called", async () => {
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
