import { describe, expect, it } from "vitest";
import {
  ConfigurableModuleBuilder,
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
} from "../../src/index.js";
import { request, Test } from "../../src/testing/index.js";
import { appsClosedAfterEach } from "../support/apps.js";

const { track } = appsClosedAfterEach();

interface MailOptions {
  readonly host: string;
  readonly port?: number;
}

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } =
  new ConfigurableModuleBuilder<MailOptions>()
    .setClassMethodName("forRoot")
    .setFactoryMethodName("mailOptions")
    .setExtras({ isGlobal: false }, (definition, extras) => ({
      ...definition,
      global: extras.isGlobal,
    }))
    .build();

@Injectable()
class Mailer {
  constructor(@Inject(MODULE_OPTIONS_TOKEN) readonly options: MailOptions) {}
}

@Module({ providers: [Mailer], exports: [Mailer] })
class MailModule extends ConfigurableModuleClass {
  constructor(@Inject(MODULE_OPTIONS_TOKEN) readonly options: MailOptions) {
    super();
  }
}

@Controller("mail")
class MailController {
  constructor(private readonly mailer: Mailer) {}
  @Get()
  options() {
    return this.mailer.options;
  }
}

@Injectable()
class MailConfig {
  mailOptions(): MailOptions {
    return { host: "smtp.from-class", port: 2525 };
  }
}

@Module({ providers: [{ provide: "HOST", useValue: "smtp.from-factory" }], exports: ["HOST"] })
class HostModule {}

describe("ConfigurableModuleBuilder generates forRoot and forRootAsync", () => {
  it("forRoot provides the options without the extras, which shape the definition", async () => {
    const definition = MailModule.forRoot({ host: "smtp.local", isGlobal: true });
    expect(definition.module).toBe(MailModule);
    expect(definition.global).toBe(true);
    expect(MailModule.forRoot({ host: "smtp.local" }).global).toBe(false);

    @Module({ imports: [definition], controllers: [MailController] })
    class AppModule {}
    const app = track(AppModule);
    await app.listen(0);
    const response = await request(app, "GET", "/mail");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ host: "smtp.local" });
    expect(app.get(MailModule).options).toEqual({ host: "smtp.local" });
  });

  it("forRootAsync takes useFactory with inject and imports, useClass, useExisting", async () => {
    for (const [imported, host] of [
      [
        MailModule.forRootAsync({
          imports: [HostModule],
          useFactory: (h: string) => ({ host: h }),
          inject: ["HOST"],
        }),
        "smtp.from-factory",
      ],
      [MailModule.forRootAsync({ useClass: MailConfig }), "smtp.from-class"],
      [
        MailModule.forRootAsync({
          useExisting: "CONFIG",
          provideInjectionTokensFrom: [{ provide: "CONFIG", useClass: MailConfig }],
        }),
        "smtp.from-class",
      ],
    ] as const) {
      const moduleRef = await Test.createTestingModule({ imports: [imported] }).compile();
      try {
        expect(moduleRef.get(Mailer).options.host).toBe(host);
      } finally {
        await moduleRef.close();
      }
    }
  });

  it("forRootAsync without a way to make the options says what it needs", () => {
    expect(() => MailModule.forRootAsync({})).toThrow(
      "forRootAsync() needs one of useFactory, useClass or useExisting to make the options.",
    );
  });
});
