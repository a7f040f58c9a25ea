import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  APP_GUARD,
  applyDecorators,
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  ForbiddenException,
  Get,
  Injectable,
  Module,
  Post,
  Reflector,
  Req,
  type RequestContext,
  SetMetadata,
  UnauthorizedException,
  UseGuards,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { appsClosedAfterEach } from "../support/apps.js";

const { init, listen } = appsClosedAfterEach();

describe("SetMetadata", () => {
  it("records on the method function and on the class, with the key as KEY", () => {
    const Tagged = (value: string) => SetMetadata("tag", value);
    @Tagged("class")
    class Tags {
      @Tagged("method")
      handle() {}
    }
    expect(Reflect.getMetadata("tag", Tags)).toBe("class");
    expect(Reflect.getMetadata("tag", Tags.prototype.handle)).toBe("method");
    expect(SetMetadata("tag", 1).KEY).toBe("tag");
  });
});

describe("Reflector", () => {
  const reflector = new Reflector();
  @SetMetadata("roles", ["user"])
  @SetMetadata("options", { a: 1, b: 1 })
  @SetMetadata("flag", "class")
  class Target {
    @SetMetadata("roles", ["admin"])
    @SetMetadata("options", { b: 2 })
    @SetMetadata("flag", "method")
    both() {}
    none() {}
  }
  const both = [Target.prototype.both, Target];
  const classOnly = [Target.prototype.none, Target];

  it("get reads one target's metadata; getAll each target's, undefined included", () => {
    expect(reflector.get("flag", Target.prototype.both)).toBe("method");
    expect(reflector.get("flag", Target)).toBe("class");
    expect(reflector.get("missing", Target)).toBeUndefined();
    expect(reflector.getAll("flag", both)).toEqual(["method", "class"]);
    expect(reflector.getAll("flag", classOnly)).toEqual([undefined, "class"]);
  });

  it("getAllAndOverride takes the first target that has a value", () => {
    expect(reflector.getAllAndOverride("flag", both)).toBe("method");
    expect(reflector.getAllAndOverride("flag", classOnly)).toBe("class");
    expect(reflector.getAllAndOverride("missing", both)).toBeUndefined();
  });

  it("getAllAndMerge concatenates arrays, merges objects, collects other values", () => {
    expect(reflector.getAllAndMerge("roles", both)).toEqual(["admin", "user"]);
    expect(reflector.getAllAndMerge("options", both)).toEqual({ b: 1, a: 1 });
    expect(reflector.getAllAndMerge("flag", both)).toEqual(["method", "class"]);
    expect(reflector.getAllAndMerge("flag", classOnly)).toEqual(["class"]);
    expect(reflector.getAllAndMerge("roles", classOnly)).toEqual(["user"]);
    expect(reflector.getAllAndMerge("options", classOnly)).toEqual({ a: 1, b: 1 });
    expect(reflector.getAllAndMerge("missing", both)).toEqual([]);
  });

  it("createDecorator: a typed decorator, read back by the decorator itself", () => {
    const Roles = Reflector.createDecorator<Array<string>>();
    const Weight = Reflector.createDecorator<number, string>({
      key: "weight",
      transform: (n) => `${n} kg`,
    });
    const Marker = Reflector.createDecorator<string>();
    class Decorated {
      @Roles(["admin"])
      @Weight(3)
      @Marker()
      handle() {}
    }
    const roles: Array<string> | undefined = reflector.get(Roles, Decorated.prototype.handle);
    expect(roles).toEqual(["admin"]);
    expect(reflector.get(Weight, Decorated.prototype.handle)).toBe("3 kg");
    expect(Weight.KEY).toBe("weight");
    expect(reflector.get("weight", Decorated.prototype.handle)).toBe("3 kg");
    // As in NestJS, a decorator called without a value records {}.
    expect(reflector.get(Marker, Decorated.prototype.handle)).toEqual({});
    expect(reflector.getAllAndOverride(Roles, [Decorated.prototype.handle, Decorated])).toEqual([
      "admin",
    ]);
    expect(Roles.KEY).not.toBe(Marker.KEY);
  });

  it("every app provides it, ready to inject", async () => {
    @Module({})
    class AppModule {}
    const app = await init(AppModule);
    expect(app.get(Reflector)).toBeInstanceOf(Reflector);
  });
});

describe("getHandler() and getClass()", () => {
  it("are the handler method and the controller class, as NestJS gives them", async () => {
    const seen: Array<[Function, Function]> = [];
    class RecordingGuard implements CanActivate {
      canActivate(context: ExecutionContext) {
        seen.push([context.getHandler(), context.getClass()]);
        return true;
      }
    }
    @Controller("cats")
    @UseGuards(RecordingGuard)
    class CatsController {
      @Get()
      findAll() {
        return [];
      }
    }
    @Module({ controllers: [CatsController] })
    class AppModule {}
    const app = await listen(AppModule);
    expect((await request(app, "GET", "/cats")).status).toBe(200);
    expect(seen).toEqual([[CatsController.prototype.findAll, CatsController]]);
  });
});

describe("applyDecorators", () => {
  /** Roles guard as NestJS's docs write it: not a provider, Reflector injected. */
  @Injectable()
  class RolesGuard implements CanActivate {
    constructor(private readonly reflector: Reflector) {}
    canActivate(context: ExecutionContext) {
      const roles = this.reflector.getAllAndMerge<Array<string>>("roles", [
        context.getHandler(),
        context.getClass(),
      ]);
      if (roles.length === 0) return true;
      const role = context.switchToHttp().getRequest().headers["x-role"];
      return role !== undefined && roles.includes(role);
    }
  }
  const Auth = (...roles: Array<string>) =>
    applyDecorators(SetMetadata("roles", roles), UseGuards(RolesGuard));

  @Controller("admin")
  @Auth("admin")
  class AdminController {
    @Get()
    dashboard() {
      return { ok: "dashboard" };
    }
    @Get("reports")
    @Auth("auditor")
    reports() {
      return { ok: "reports" };
    }
  }
  @Module({ controllers: [AdminController] })
  class AppModule {}

  it("combines metadata and a guard on a class and on a method", async () => {
    const app = await listen(AppModule);
    const anonymous = await request(app, "GET", "/admin");
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toMatchObject({ statusCode: 403 });
    expect((await request(app, "GET", "/admin", { headers: { "x-role": "admin" } })).body).toEqual({
      ok: "dashboard",
    });
    // The method's roles merge with the class's: admin or auditor.
    const auditor = await request(app, "GET", "/admin/reports", {
      headers: { "x-role": "auditor" },
    });
    expect(auditor.status).toBe(200);
    const user = await request(app, "GET", "/admin/reports", { headers: { "x-role": "user" } });
    expect(user.status).toBe(403);
  });
});

describe("a global guard with @Public(), as NestJS's JWT-auth sample has it", () => {
  const IS_PUBLIC_KEY = "isPublic";
  const Public = () => SetMetadata(IS_PUBLIC_KEY, true);

  @Injectable()
  class TokenService {
    private readonly users = new Map([["john", { id: 1, username: "john", role: "user" }]]);
    private readonly tokens = new Map<string, { id: number; username: string; role: string }>();
    signIn(username: string) {
      const user = this.users.get(username);
      if (user === undefined) throw new UnauthorizedException();
      const token = randomBytes(16).toString("hex");
      this.tokens.set(token, user);
      return token;
    }
    verify(token: string) {
      return this.tokens.get(token);
    }
  }

  @Injectable()
  class AuthGuard implements CanActivate {
    constructor(
      private readonly tokens: TokenService,
      private readonly reflector: Reflector,
    ) {}
    canActivate(context: ExecutionContext) {
      const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [
        context.getHandler(),
        context.getClass(),
      ]);
      if (isPublic) return true;
      const request = context.switchToHttp().getRequest();
      const [type, token] = request.headers.authorization?.split(" ") ?? [];
      const user = type === "Bearer" && token !== undefined ? this.tokens.verify(token) : undefined;
      if (user === undefined) throw new UnauthorizedException();
      request.user = user;
      return true;
    }
  }

  @Controller("auth")
  class AuthController {
    constructor(private readonly tokens: TokenService) {}
    @Public()
    @Post("login")
    signIn(@Body() body: { username: string }) {
      return { access_token: this.tokens.signIn(body.username) };
    }
    @Get("profile")
    profile(@Req() req: RequestContext) {
      return req.user;
    }
  }

  @Public()
  @Controller("status")
  class StatusController {
    @Get()
    status() {
      return { up: true };
    }
  }

  @Module({
    controllers: [AuthController],
    providers: [TokenService, { provide: APP_GUARD, useClass: AuthGuard }],
  })
  class AuthModule {}
  @Module({ imports: [AuthModule], controllers: [StatusController] })
  class AppModule {}

  it("refuses a protected route without a token: 401 in the standard shape", async () => {
    const app = await listen(AppModule);
    const response = await request(app, "GET", "/auth/profile");
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ statusCode: 401, message: "Unauthorized" });
    const forged = await request(app, "GET", "/auth/profile", {
      headers: { authorization: "Bearer forged" },
    });
    expect(forged.status).toBe(401);
    expect(forged.text).not.toContain("forged");
  });

  it("lets @Public() routes through, on a method and on a whole controller", async () => {
    const app = await listen(AppModule);
    expect((await request(app, "GET", "/status")).body).toEqual({ up: true });
    const login = await request(app, "POST", "/auth/login", { body: { username: "john" } });
    expect(login.status).toBe(201);
    expect(login.body).toEqual({ access_token: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it("a token from the public login opens the protected route", async () => {
    const app = await listen(AppModule);
    const login = await request(app, "POST", "/auth/login", { body: { username: "john" } });
    const token = (login.body as { access_token: string }).access_token;
    const profile = await request(app, "GET", "/auth/profile", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual({ id: 1, username: "john", role: "user" });
  });

  it("an unknown user at the public login is a 401, not a 500", async () => {
    const app = await listen(AppModule);
    const login = await request(app, "POST", "/auth/login", { body: { username: "eve" } });
    expect(login.status).toBe(401);
  });
});

describe("a guard's ForbiddenException with metadata", () => {
  it("denies with the guard's exception when metadata says so", async () => {
    const Blocked = Reflector.createDecorator<string>();
    @Injectable()
    class BlockGuard implements CanActivate {
      constructor(private readonly reflector: Reflector) {}
      canActivate(context: ExecutionContext) {
        const reason = this.reflector.get(Blocked, context.getHandler());
        if (reason !== undefined) throw new ForbiddenException(reason);
        return true;
      }
    }
    @Controller("items")
    @UseGuards(BlockGuard)
    class ItemsController {
      @Get("open")
      open() {
        return { open: true };
      }
      @Get("closed")
      @Blocked("closed for maintenance")
      closed() {
        return { open: false };
      }
    }
    @Module({ controllers: [ItemsController] })
    class AppModule {}
    const app = await listen(AppModule);
    expect((await request(app, "GET", "/items/open")).status).toBe(200);
    const closed = await request(app, "GET", "/items/closed");
    expect(closed.status).toBe(403);
    expect(closed.body).toMatchObject({ statusCode: 403, message: "closed for maintenance" });
  });
});
