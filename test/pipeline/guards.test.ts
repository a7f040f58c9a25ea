import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { expect as effectExpect, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { describe, expect, it } from "vitest";
import { Guards } from "../../src/effect/index.js";
import {
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  Module,
  Post,
  Req,
  type RequestContext,
  Scope,
  StrataApp,
  UnauthorizedError,
  UseGuards,
} from "../../src/index.js";
import { request, serveTest } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

const calls: Array<string> = [];

@Injectable()
class Users {
  private readonly byToken = new Map([
    ["ada-token", { id: 1, username: "ada", role: "admin" }],
    ["bob-token", { id: 2, username: "bob", role: "user" }],
  ]);
  find(token: string | undefined) {
    return token === undefined ? undefined : this.byToken.get(token);
  }
}

/** Injects Users, sets request.user; unknown token -> 401 thrown. */
@Injectable()
class AuthGuard implements CanActivate {
  static instances = 0;
  constructor(private readonly users: Users) {
    AuthGuard.instances++;
  }
  canActivate(context: ExecutionContext): boolean {
    calls.push("auth");
    const header = context.switchToHttp().getRequest().headers.authorization;
    if (header === undefined) return false;
    const user = this.users.find(header.replace(/^Bearer /, ""));
    if (user === undefined) throw new UnauthorizedError("Unknown token");
    context.user = user;
    return true;
  }
}

/** Not registered as a provider: created through DI with its constructor dependency. */
class AdminGuard implements CanActivate {
  constructor(readonly users: Users) {}
  canActivate(context: ExecutionContext) {
    calls.push("admin");
    return Promise.resolve(context.user?.role === "admin");
  }
}
Reflect.defineMetadata("design:paramtypes", [Users], AdminGuard);

class EffectGuard implements CanActivate {
  canActivate(context: ExecutionContext) {
    calls.push("effect");
    return Effect.succeed(context.headers["x-allow"] === "yes");
  }
}

class GlobalGuard implements CanActivate {
  canActivate(context: ExecutionContext) {
    calls.push("global");
    return context.headers["x-block-all"] !== "1";
  }
}

class BodyGuard implements CanActivate {
  canActivate(context: ExecutionContext) {
    return (context.body as { ok?: boolean } | undefined)?.ok === true;
  }
}

class ContextProbe implements CanActivate {
  canActivate(context: ExecutionContext) {
    const response = context.switchToHttp().getResponse();
    response.setHeader("x-guard", `${context.getClass().name}.${context.getHandler().name}`);
    return context.getType() === "http" && context.switchToHttp().getRequest() === context;
  }
}

let perRequestCount = 0;
@Injectable({ scope: Scope.REQUEST })
class RequestCounter {
  readonly n = ++perRequestCount;
}

@Injectable()
class RequestScopedGuard implements CanActivate {
  constructor(private readonly counter: RequestCounter) {}
  canActivate(context: ExecutionContext) {
    context.user = { id: this.counter.n, username: "scoped", role: "user" };
    return true;
  }
}

@Controller("guarded")
@UseGuards(AuthGuard)
class GuardedController {
  @Get("me")
  me(@Req() req: RequestContext) {
    return req.user;
  }

  @Get("admin")
  @UseGuards(AdminGuard)
  admin(@Req() req: RequestContext) {
    return { admin: req.user?.username };
  }

  @Get("effect")
  @UseGuards(new EffectGuard())
  effect() {
    return { ok: true };
  }
}

@Controller("open")
class OpenController {
  @Get()
  open() {
    return { open: true };
  }

  @Post("body")
  @UseGuards(BodyGuard)
  body() {
    return { passed: true };
  }

  @Post("body-param")
  @UseGuards(BodyGuard)
  bodyParam(@Body() body: unknown) {
    return body;
  }

  @Get("probe")
  @UseGuards(ContextProbe)
  probe() {
    return "probed";
  }

  @Get("scoped")
  @UseGuards(RequestScopedGuard)
  scoped(@Req() req: RequestContext) {
    return req.user;
  }
}

@Module({
  controllers: [GuardedController, OpenController],
  providers: [Users, AuthGuard, RequestCounter, RequestScopedGuard],
})
class AppModule {}

describe("guards", () => {
  const app = listeningApp(AppModule, { globalGuards: [GlobalGuard] });
  const get = (path: string, headers: Record<string, string> = {}) =>
    request(app, "GET", path, { headers });

  it("lets an allowed request through, with the user the guard set", async () => {
    calls.length = 0;
    const res = await get("/guarded/me", { authorization: "Bearer ada-token" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 1, username: "ada", role: "admin" });
    expect(calls).toEqual(["global", "auth"]);
  });

  it("answers 403 Forbidden when a guard denies", async () => {
    const res = await get("/guarded/me");
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message: "Forbidden" });
  });

  it("answers with the HttpError a guard throws", async () => {
    const res = await get("/guarded/me", { authorization: "Bearer nope" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: "Unknown token" });
  });

  it("runs global, then controller, then method guards, stopping at the first denial", async () => {
    calls.length = 0;
    const denied = await get("/guarded/admin", { authorization: "Bearer bob-token" });
    expect(denied.status).toBe(403);
    expect(calls).toEqual(["global", "auth", "admin"]);
    calls.length = 0;
    const blocked = await get("/guarded/admin", {
      authorization: "Bearer ada-token",
      "x-block-all": "1",
    });
    expect(blocked.status).toBe(403);
    expect(calls).toEqual(["global"]);
    const allowed = await get("/guarded/admin", { authorization: "Bearer ada-token" });
    expect(allowed).toMatchObject({ status: 200, body: { admin: "ada" } });
  });

  it("accepts guards answering with a Promise or an Effect", async () => {
    const auth = { authorization: "Bearer bob-token" };
    expect((await get("/guarded/effect", { ...auth, "x-allow": "yes" })).status).toBe(200);
    expect((await get("/guarded/effect", { ...auth, "x-allow": "no" })).status).toBe(403);
  });

  it("creates each guard class once, through DI", () => {
    expect(AuthGuard.instances).toBe(1);
  });

  it("guards routes of other controllers only with the global guard", async () => {
    expect((await get("/open")).status).toBe(200);
    expect((await get("/open", { "x-block-all": "1" })).status).toBe(403);
  });

  it("shows guards the request body", async () => {
    expect((await request(app, "POST", "/open/body", { body: { ok: true } })).status).toBe(201);
    expect((await request(app, "POST", "/open/body", { body: { ok: false } })).status).toBe(403);
    expect(
      await request(app, "POST", "/open/body-param", { body: { ok: true, n: 1 } }),
    ).toMatchObject({ status: 201, body: { ok: true, n: 1 } });
  });

  it("gives guards an ExecutionContext: class, handler, request and response", async () => {
    const res = await get("/open/probe");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-guard")).toBe("OpenController.probe");
  });

  it("makes a guard depending on a request-scoped provider once per request", async () => {
    const first = (await get("/open/scoped")).body as { id: number };
    const second = (await get("/open/scoped")).body as { id: number };
    expect(second.id).toBe(first.id + 1);
  });

  it("fails the start when a guard's dependency cannot be resolved", async () => {
    class Missing {}
    class NeedsMissing implements CanActivate {
      constructor(readonly missing: Missing) {}
      canActivate() {
        return true;
      }
    }
    Reflect.defineMetadata("design:paramtypes", [Missing], NeedsMissing);
    @Controller("x")
    class XController {
      @Get()
      @UseGuards(NeedsMissing)
      x() {
        return 1;
      }
    }
    @Module({ controllers: [XController] })
    class XModule {}
    await expect(new StrataApp(XModule).init()).rejects.toThrow(
      /Cannot inject parameter #0 of NeedsMissing \(a guard of XController\.x\): no provider of Missing/,
    );
  });

  it("adds guards with app.useGlobalGuards, before listening only", async () => {
    @Controller("y")
    class YController {
      @Get()
      y() {
        return 1;
      }
    }
    @Module({ controllers: [YController] })
    class YModule {}
    const other = new StrataApp(YModule).useGlobalGuards({ canActivate: () => false });
    await other.listen(0);
    try {
      expect((await request(other, "GET", "/y")).status).toBe(403);
      expect(() => other.useGlobalGuards(new GlobalGuard())).toThrow(
        /before init\(\) or listen\(\)/,
      );
    } finally {
      await other.close();
    }
  });
});

const isAdmin = Effect.map(Guards.CurrentUser, (user) => user.role === "admin");
const fromToken = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  request.headers.authorization === "Bearer ada-token"
    ? Effect.succeed({ id: 1, username: "ada", role: "admin" })
    : request.headers.authorization === "Bearer bob-token"
      ? Effect.succeed({ id: 2, username: "bob", role: "user" })
      : Effect.fail(new UnauthorizedError()),
);
const Admin = HttpLayerRouter.add(
  "GET",
  "/admin",
  Effect.map(Guards.CurrentUser, (user) =>
    HttpServerResponse.unsafeJson({ admin: user.username }),
  ).pipe(Guards.guard(isAdmin), Guards.authenticate(fromToken)),
);

layer(serveTest(Layer.mergeAll(Admin)))("guards, Effect face", (it) => {
  const get = (authorization?: string) =>
    Effect.flatMap(
      HttpClient.get("/admin", { headers: authorization ? { authorization } : {} }),
      (response) => Effect.map(response.json, (body) => ({ status: response.status, body })),
    );
  it.effect("authenticates, then guards, then runs the handler with CurrentUser", () =>
    Effect.gen(function* () {
      effectExpect(yield* get("Bearer ada-token")).toEqual({ status: 200, body: { admin: "ada" } });
      effectExpect(yield* get("Bearer bob-token")).toEqual({
        status: 403,
        body: { statusCode: 403, message: "Forbidden" },
      });
      effectExpect(yield* get()).toEqual({
        status: 401,
        body: { statusCode: 401, message: "Unauthorized" },
      });
    }),
  );
});
