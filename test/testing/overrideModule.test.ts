import { describe, expect, it } from "vitest";
import { Controller, Get, Inject, Injectable, Module } from "../../src/index.js";
import { request, Test } from "../../src/testing/index.js";

@Injectable()
class Mailer {
  send() {
    return "real mail";
  }
}

@Module({ providers: [Mailer], exports: [Mailer] })
class MailModule {}

@Injectable()
class FakeMailer {
  send() {
    return "fake mail";
  }
}

@Module({ providers: [{ provide: Mailer, useClass: FakeMailer }], exports: [Mailer] })
class FakeMailModule {}

@Controller("mail")
class MailController {
  constructor(@Inject(Mailer) private readonly mailer: Mailer) {}
  @Get()
  send() {
    return { sent: this.mailer.send() };
  }
}

@Module({ imports: [MailModule], controllers: [MailController] })
class AppModule {}

@Controller("real")
class RealController {}

const dynamicReal = { module: class DynamicReal {}, controllers: [RealController] };

@Controller("fake")
class FakeController {
  @Get()
  hello() {
    return "fake controller";
  }
}

const dynamicFake = { module: class DynamicFake {}, controllers: [FakeController] };

/** Depends on a service no module provides: `useMocker` makes it. */
class Weather {
  forecast(): string {
    throw new Error("not in tests");
  }
}

@Injectable()
class Forecaster {
  constructor(@Inject(Weather) private readonly weather: Weather) {}
  today() {
    return this.weather.forecast();
  }
}

describe("TestingModuleBuilder.overrideModule", () => {
  it("compiles the replacement wherever the module is imported (over real HTTP)", async () => {
    const module = await Test.createTestingModule({ imports: [AppModule] })
      .overrideModule(MailModule)
      .useModule(FakeMailModule)
      .compile();
    const app = module.createNestApplication();
    await app.listen(0);
    try {
      expect(module.get(Mailer)).toBeInstanceOf(FakeMailer);
      expect(await request(app, "GET", "/mail")).toMatchObject({
        status: 200,
        body: { sent: "fake mail" },
      });
    } finally {
      await app.close();
    }
  });

  it("replaces a dynamic module object, its controllers with it", async () => {
    const module = await Test.createTestingModule({ imports: [dynamicReal] })
      .overrideModule(dynamicReal)
      .useModule(dynamicFake)
      .compile();
    const app = module.createNestApplication();
    await app.listen(0);
    try {
      expect(() => module.get(RealController)).toThrow("No provider of RealController");
      expect(await request(app, "GET", "/fake")).toMatchObject({
        status: 200,
        text: "fake controller",
      });
      expect((await request(app, "GET", "/real")).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe("TestingModuleBuilder.useMocker", () => {
  it("makes the dependencies no module provides", async () => {
    const asked: Array<unknown> = [];
    const module = await Test.createTestingModule({ providers: [Forecaster] })
      .useMocker((token) => {
        asked.push(token);
        return token === Weather ? { forecast: () => "sunny" } : undefined;
      })
      .compile();
    try {
      expect(module.get(Forecaster).today()).toBe("sunny");
      expect(module.get(Weather).forecast()).toBe("sunny");
      expect(asked).toEqual([Weather]);
    } finally {
      await module.close();
    }
  });

  it("leaves a dependency it does not mock missing: the start fails naming it", async () => {
    await expect(
      Test.createTestingModule({ providers: [Forecaster] })
        .useMocker(() => undefined)
        .compile(),
    ).rejects.toThrow("Cannot resolve parameter #0 (Weather) of Forecaster");
  });
});
