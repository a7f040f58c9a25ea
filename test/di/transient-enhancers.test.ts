import { describe, expect, it } from "vitest";
import {
  type CanActivate,
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  REQUEST,
  Scope,
  UseGuards,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

/** Every instance made, by the controller whose route first ran it. */
const guards: Array<CountingGuard> = [];

@Injectable({ scope: Scope.TRANSIENT })
class CountingGuard implements CanActivate {
  constructor() {
    guards.push(this);
  }
  canActivate() {
    return true;
  }
}

@Injectable({ scope: Scope.REQUEST })
class PerRequestService {
  constructor(@Inject(REQUEST) readonly request: unknown) {}
}

/** Request-scoped (through its service): NestJS makes its transient enhancers per request. */
@Controller("scoped")
class ScopedController {
  constructor(readonly service: PerRequestService) {}
  @Get()
  @UseGuards(CountingGuard)
  hello() {
    return "scoped";
  }
}

@Controller("one")
class OneController {
  @Get()
  @UseGuards(CountingGuard)
  a() {
    return "a";
  }
  @Get("b")
  @UseGuards(CountingGuard)
  b() {
    return "b";
  }
}

@Controller("two")
class TwoController {
  @Get()
  @UseGuards(CountingGuard)
  two() {
    return "two";
  }
}

@Module({
  controllers: [ScopedController, OneController, TwoController],
  providers: [PerRequestService],
})
class AppModule {}

describe("transient guards, as NestJS counts them", () => {
  const app = listeningApp(AppModule);

  it("one per singleton controller (shared by its routes), one per request of a request-scoped one", async () => {
    // At startup: one for OneController, one for TwoController, none for ScopedController.
    expect(guards).toHaveLength(2);
    for (const path of ["/one", "/one/b", "/two"]) {
      expect(await request(app, "GET", path)).toMatchObject({ status: 200 });
    }
    expect(guards).toHaveLength(2);
    for (let i = 0; i < 3; i++) {
      expect(await request(app, "GET", "/scoped")).toMatchObject({ status: 200, text: "scoped" });
    }
    expect(guards).toHaveLength(5);
  });
});
