import { describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  INQUIRER,
  Inject,
  Injectable,
  Module,
  REQUEST,
  Scope,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { appsClosedAfterEach } from "../support/apps.js";

const { listen } = appsClosedAfterEach();

/** Built per consumer: names the class it is built for. */
@Injectable({ scope: Scope.TRANSIENT })
class NamedLogger {
  @Inject(INQUIRER) readonly property: unknown;
  readonly context: string;
  constructor(@Inject(INQUIRER) inquirer: object | undefined) {
    this.context = inquirer?.constructor.name ?? "none";
  }
  line(message: string) {
    return `[${this.context}] ${message}`;
  }
}

@Injectable()
class Billing {
  constructor(readonly logger: NamedLogger) {}
}

@Injectable()
class Shipping {
  constructor(readonly logger: NamedLogger) {}
}

/** Request-scoped (it injects REQUEST): built for its first consumer in the request. */
@Injectable({ scope: Scope.TRANSIENT })
class RequestLogger {
  readonly context: string;
  constructor(
    @Inject(INQUIRER) inquirer: object | undefined,
    @Inject(REQUEST) readonly request: { url: string },
  ) {
    this.context = inquirer?.constructor.name ?? "none";
  }
}

@Injectable({ scope: Scope.REQUEST })
class Audit {
  constructor(readonly logger: RequestLogger) {}
}

/** A singleton injecting INQUIRER is built for no provider: it gets `undefined`. */
@Injectable()
class Alone {
  constructor(@Inject(INQUIRER) readonly inquirer: unknown) {}
}

@Controller("log")
class LogController {
  constructor(
    private readonly billing: Billing,
    private readonly shipping: Shipping,
    private readonly audit: Audit,
    private readonly alone: Alone,
  ) {}
  @Get()
  lines() {
    return {
      billing: this.billing.logger.line("paid"),
      shipping: this.shipping.logger.line("sent"),
      sameClassOtherInstance: this.billing.logger !== this.shipping.logger,
      propertyIsAnObjectOfTheConsumer: this.billing.logger.property instanceof Billing,
      audit: `${this.audit.logger.context} ${this.audit.logger.request.url}`,
      alone: this.alone.inquirer === undefined,
    };
  }
}

@Module({
  controllers: [LogController],
  providers: [NamedLogger, Billing, Shipping, RequestLogger, Audit, Alone],
})
class AppModule {}

describe("INQUIRER", () => {
  it("gives a transient or request-scoped provider an object of its consumer's class", async () => {
    const app = await listen(AppModule);
    const response = await request(app, "GET", "/log?x=1");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      billing: "[Billing] paid",
      shipping: "[Shipping] sent",
      sameClassOtherInstance: true,
      propertyIsAnObjectOfTheConsumer: true,
      audit: "Audit /log?x=1",
      alone: true,
    });
  });
});
