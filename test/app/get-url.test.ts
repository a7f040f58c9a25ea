import { describe, expect, it } from "vitest";
import { Controller, Get, Module } from "../../src/index.js";
import { Test } from "../../src/testing/index.js";
import { freePort } from "../support/freePort.js";

@Controller()
class HelloController {
  @Get()
  hello() {
    return "hello";
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

describe("getUrl() and listen() as NestJS's", () => {
  it("names [::1] for node's default host, the host given otherwise, and throws NestJS's message before listen", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [HelloModule] }).compile();
    const app = moduleRef.createNestApplication();
    expect(() => app.getUrl()).toThrow(
      "app.listen() needs to be called before calling app.getUrl()",
    );
    await app.listen(await freePort());
    try {
      const url = app.getUrl();
      expect(url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("hello");
    } finally {
      await app.close();
    }

    const other = await Test.createTestingModule({ imports: [HelloModule] }).compile();
    const onHost = other.createNestApplication();
    const port = await freePort();
    await onHost.listen(port, "127.0.0.5");
    try {
      expect(onHost.getUrl()).toBe(`http://127.0.0.5:${port}`);
      expect(await (await fetch(onHost.getUrl())).text()).toBe("hello");
    } finally {
      await onHost.close();
    }
  });

  it("a second app of a started testing module rejects listen on a busy port with EADDRINUSE, the first serving on", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [HelloModule] }).compile();
    const first = moduleRef.createNestApplication();
    const port = await freePort();
    await first.listen(port, "127.0.0.1");
    const second = moduleRef.createNestApplication();
    try {
      expect(second).not.toBe(first);
      await expect(second.listen(port, "127.0.0.1")).rejects.toMatchObject({
        code: "EADDRINUSE",
      });
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("hello");
    } finally {
      await second.close();
      await first.close();
    }
  });
});
