import { map } from "rxjs";
import { describe, expect, it } from "vitest";
import {
  type CallHandler,
  Controller,
  type ExecutionContext,
  Get,
  HttpCode,
  Injectable,
  Module,
  type NestInterceptor,
  Post,
  UseInterceptors,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

/** NestJS's sample: sets the status on the response, then wraps the handler's value. */
@Injectable()
class StatusInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    context.switchToHttp().getResponse().status(400);
    return next.handle().pipe(map((data) => ({ data })));
  }
}

@Controller("status")
class StatusController {
  @Get("set")
  @UseInterceptors(StatusInterceptor)
  set() {
    return "Hello world!";
  }

  @Post("default")
  created() {
    return { created: true };
  }

  @Get("code")
  @HttpCode(202)
  accepted() {
    return { accepted: true };
  }
}

@Module({ controllers: [StatusController] })
class AppModule {}

describe("a status set on the response by an interceptor", () => {
  const app = listeningApp(AppModule);

  it("is the status of the handler's response, as in NestJS", async () => {
    expect(await request(app, "GET", "/status/set")).toMatchObject({
      status: 400,
      body: { data: "Hello world!" },
    });
  });

  it("leaves the route's own status alone when nothing set one", async () => {
    expect(await request(app, "POST", "/status/default")).toMatchObject({
      status: 201,
      body: { created: true },
    });
    expect(await request(app, "GET", "/status/code")).toMatchObject({
      status: 202,
      body: { accepted: true },
    });
  });
});
