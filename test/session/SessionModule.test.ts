// Sessions on the classic face, over real HTTP with real cookies: SessionModule.forRoot,
// SessionService (Promise methods), SessionGuard and @CurrentUser(), and the test session
// through Test.createTestingModule.
import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  HttpCode,
  Module,
  Param,
  Post,
  Req,
  type RequestContext,
  UseGuards,
} from "../../src/index.js";
import {
  CurrentUser,
  SessionGuard,
  SessionModule,
  type SessionModuleOptions,
  SessionService,
} from "../../src/session/index.js";
import { Test, TestSession } from "../../src/testing/index.js";
import { CookieJar, type JarResponse } from "../support/cookieJar.js";
import { capturingLogger, startedApps } from "../support/started.js";
import { attributesOf, COOKIE, clears, UNAUTHORIZED } from "./support/sessionContract.js";

const User = Schema.Struct({ id: Schema.String, name: Schema.String });
type User = typeof User.Type;

@Controller("auth")
class AuthController {
  constructor(private readonly sessions: SessionService<User>) {}

  @Post("login/:id")
  @HttpCode(204)
  async login(@Req() req: RequestContext, @Param("id") id: string) {
    await this.sessions.create(req, { id, name: `user ${id}` });
  }

  @Post("logout")
  @HttpCode(204)
  async logout(@Req() req: RequestContext) {
    await this.sessions.destroy(req);
  }

  @Post("rotate")
  @HttpCode(204)
  async rotate(@Req() req: RequestContext) {
    await this.sessions.rotate(req);
  }

  @Post("everywhere/:id")
  @HttpCode(204)
  async everywhere(@Param("id") id: string) {
    await this.sessions.destroyAllFor(id);
  }

  @Get("current")
  async current(@Req() req: RequestContext) {
    return { user: (await this.sessions.current(req)) ?? null };
  }
}

@Controller("me")
@UseGuards(SessionGuard)
class MeController {
  constructor(private readonly sessions: SessionService<User>) {}

  @Get()
  me(@CurrentUser() user: User) {
    return user;
  }

  // Behind the guard, then signed out by the handler: one Set-Cookie, the clearing one.
  @Post("logout")
  @HttpCode(204)
  async logout(@Req() req: RequestContext) {
    await this.sessions.destroy(req);
  }
}

@Controller("maybe")
class MaybeController {
  @Get()
  maybe(@CurrentUser({ optional: true }) user: User | undefined) {
    return { user: user ?? null };
  }

  // Without the guard: @CurrentUser() alone answers 401 without a session.
  @Get("required")
  required(@CurrentUser() user: User) {
    return user;
  }
}

const appModule = (options: Partial<SessionModuleOptions<User, User>> = {}) => {
  @Module({
    imports: [SessionModule.forRoot({ schema: User, store: "memory", ...options })],
    controllers: [AuthController, MeController, MaybeController],
  })
  class AppModule {}
  return AppModule;
};

const start = startedApps();

describe("SessionModule (classic face)", () => {
  const serve = async (options: Partial<SessionModuleOptions<User, User>> = {}) => {
    const { logger, lines } = capturingLogger();
    const app = await start(appModule(options), { logger });
    return { jar: () => new CookieJar(app.getUrl()), lines };
  };

  it("sign in with SessionService, the guard and @CurrentUser() read it, sign out clears it", async () => {
    const { jar: newJar } = await serve();
    const jar = newJar();
    const anonymous = await jar.fetch("GET", "/me");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
    expect(anonymous.setCookies).toEqual([]);

    const login = await jar.fetch("POST", "/auth/login/alice");
    expect(login.status).toBe(204);
    expect(login.setCookies).toHaveLength(1);
    const attributes = attributesOf(login.setCookies[0]);
    expect(login.setCookies[0].startsWith(`${COOKIE}=`)).toBe(true);
    expect(attributes.has("httponly")).toBe(true);
    expect(attributes.get("samesite")).toBe("Lax");
    expect(attributes.get("path")).toBe("/");
    expect(attributes.has("domain")).toBe(false);

    const me = await jar.fetch("GET", "/me");
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: "alice", name: "user alice" });
    expect(me.setCookies).toEqual([]);
    expect((await jar.fetch("GET", "/maybe")).body).toEqual({
      user: { id: "alice", name: "user alice" },
    });
    expect((await jar.fetch("GET", "/auth/current")).body).toEqual({
      user: { id: "alice", name: "user alice" },
    });

    const value = jar.get(COOKIE) as string;
    const out = await jar.fetch("POST", "/auth/logout");
    expect(out.status).toBe(204);
    expect(out.setCookies).toHaveLength(1);
    expect(clears(out.setCookies[0])).toBe(true);
    expect((await jar.fetch("GET", "/me")).status).toBe(401);
    expect((await jar.fetch("GET", "/maybe")).body).toEqual({ user: null });
    // Server-side store: a copy of the cookie made before sign-out no longer works.
    const copy = newJar();
    copy.set(COOKIE, value);
    expect((await copy.fetch("GET", "/me")).status).toBe(401);
  });

  it("check 28: a tampered, forged or unknown cookie is a 401 from the guard and @CurrentUser(), cleared, nothing leaked", async () => {
    const { jar: newJar, lines } = await serve();
    const signedIn = newJar();
    await signedIn.fetch("POST", "/auth/login/alice");
    const value = signedIn.get(COOKIE) as string;
    const responses: Array<JarResponse> = [];
    for (const candidate of [`${value.slice(0, -1)}x`, "A".repeat(43), "garbage", "__proto__"]) {
      for (const path of ["/me", "/maybe/required"]) {
        const jar = newJar();
        jar.set(COOKIE, candidate);
        const response = await jar.fetch("GET", path);
        expect(response.status, `${path} ${candidate}`).toBe(401);
        expect(response.body).toEqual(UNAUTHORIZED);
        expect(response.setCookies).toHaveLength(1);
        expect(clears(response.setCookies[0])).toBe(true);
        responses.push(response);
      }
    }
    for (const response of responses) expect(response.text).not.toContain(value);
    for (const line of lines) expect(line.text).not.toContain(value);
    expect(lines.filter((line) => line.level === "ERROR")).toEqual([]);
  });

  it("check 25: a new id at every sign-in, the old one ended; rotate gives a new id, the old stops working", async () => {
    const { jar: newJar } = await serve();
    const jar = newJar();
    await jar.fetch("POST", "/auth/login/alice");
    const first = jar.get(COOKIE) as string;
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await jar.fetch("POST", "/auth/login/alice");
    const second = jar.get(COOKIE) as string;
    expect(second).not.toBe(first);
    const replay = newJar();
    replay.set(COOKIE, first);
    expect((await replay.fetch("GET", "/me")).status).toBe(401);

    const rotated = await jar.fetch("POST", "/auth/rotate");
    expect(rotated.status).toBe(204);
    const third = jar.get(COOKIE) as string;
    expect(third).not.toBe(second);
    expect((await jar.fetch("GET", "/me")).status).toBe(200);
    replay.set(COOKIE, second);
    expect((await replay.fetch("GET", "/me")).status).toBe(401);
    const anonymous = await newJar().fetch("POST", "/auth/rotate");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
  });

  it("sign out behind the guard: exactly one Set-Cookie, the clearing one", async () => {
    const { jar: newJar } = await serve();
    const jar = newJar();
    await jar.fetch("POST", "/auth/login/alice");
    const out = await jar.fetch("POST", "/me/logout");
    expect(out.status).toBe(204);
    expect(out.setCookies).toHaveLength(1);
    expect(clears(out.setCookies[0])).toBe(true);
    expect((await jar.fetch("GET", "/me")).status).toBe(401);
  });

  it("destroyAllFor signs a user out everywhere, and nobody else", async () => {
    const { jar: newJar } = await serve();
    const [laptop, phone, other] = [newJar(), newJar(), newJar()];
    await laptop.fetch("POST", "/auth/login/alice");
    await phone.fetch("POST", "/auth/login/alice");
    await other.fetch("POST", "/auth/login/bob");
    expect((await other.fetch("POST", "/auth/everywhere/alice")).status).toBe(204);
    expect((await laptop.fetch("GET", "/me")).status).toBe(401);
    expect((await phone.fetch("GET", "/me")).status).toBe(401);
    expect((await other.fetch("GET", "/me")).status).toBe(200);
  });

  it("the default sealed-cookie store works the same through the classic face", async () => {
    const { jar: newJar } = await serve({
      store: "cookie",
      secret: "classic-session-secret-0123456789-abcdef",
    });
    const jar = newJar();
    await jar.fetch("POST", "/auth/login/alice");
    expect(jar.get(COOKIE)).toMatch(/^v1\./);
    expect((await jar.fetch("GET", "/me")).body).toEqual({ id: "alice", name: "user alice" });
    jar.set(COOKIE, `${jar.get(COOKIE)}x`);
    const tampered = await jar.fetch("GET", "/me");
    expect(tampered.status).toBe(401);
    expect(clears(tampered.setCookies[0])).toBe(true);
  });

  it("a secret under 32 characters fails the start", async () => {
    await expect(start(appModule({ store: "cookie", secret: "short" }))).rejects.toThrow(
      /at least 32 characters/,
    );
  });
});

describe("TestSession through Test.createTestingModule", () => {
  const alice: User = { id: "alice", name: "user alice" };

  it("requests run signed in as the given user, no sign-in; sign-out and sign-in still work", async () => {
    const module = await Test.createTestingModule({ imports: [appModule()] })
      .overrideProvider(SessionService)
      .useValue(TestSession.service(alice))
      .compile();
    const app = module.createStrataApp();
    await app.listen(0, "127.0.0.1");
    try {
      const jar = new CookieJar(app.getUrl());
      const me = await jar.fetch("GET", "/me");
      expect(me.status).toBe(200);
      expect(me.body).toEqual(alice);
      expect(me.setCookies).toEqual([]);
      expect((await jar.fetch("POST", "/auth/logout")).status).toBe(204);
      expect((await jar.fetch("GET", "/me")).status).toBe(401);
      expect((await jar.fetch("GET", "/maybe")).body).toEqual({ user: null });
      await jar.fetch("POST", "/auth/login/bob");
      expect((await jar.fetch("GET", "/me")).body).toEqual({ id: "bob", name: "user bob" });
    } finally {
      await app.close();
      await module.close();
    }
  });
});
