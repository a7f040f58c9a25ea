import { describe, expect, it } from "vitest";
import { ApplicationConfig, Injectable, Module } from "../../src/index.js";
import { Test } from "../../src/testing/index.js";

@Injectable()
class Writer {
  constructor(readonly config: ApplicationConfig) {}
}

@Module({ providers: [Writer] })
class FeatureModule {}

describe("ApplicationConfig", () => {
  it("is one per app, injectable in every module, recording the global prefix set on it", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [FeatureModule] }).compile();
    try {
      const config = moduleRef.get(ApplicationConfig);
      expect(config.getGlobalPrefix()).toBe("");
      moduleRef.get(Writer).config.setGlobalPrefix("/api");
      expect(moduleRef.get(Writer).config).toBe(config);
      expect(config.getGlobalPrefix()).toBe("/api");
    } finally {
      await moduleRef.close();
    }
  });
});
