// A session known at once: the sealed-cookie and memory stores answer `loadNow`, so a valid
// session that is not due a write-back passes `SessionGuard` synchronously (`canActivate`
// answers `true`, no Effect) and `Session.current` in one step, without the store's `load`.
// Anything else takes the Effect path, which writes back, answers 401 and clears. Over real
// HTTP, with the app's request fibers on the test's clock (TestClock).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as TestClock from "effect/TestClock";
import { inject } from "vitest";
import {
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  HttpCode,
  Injectable,
  Module,
  Param,
  Post,
  StrataApp,
  UseGuards,
} from "../../src/index.js";
import {
  CookieSessionStore,
  CurrentUser,
  DEFAULT_IDLE_TIMEOUT,
  DEFAULT_TOUCH_INTERVAL,
  MemorySessionStore,
  RedisSessionStore,
  SessionGuard,
  SessionModule,
  type SessionOptions,
  SessionService,
  type SessionStore,
} from "../../src/session/index.js";
import { serveTest } from "../../src/testing/index.js";
import { baseUrlOf } from "../support/baseUrl.js";
import { CookieJar } from "../support/cookieJar.js";
import { COOKIE, clears, UNAUTHORIZED } from "./support/sessionContract.js";
import {
  countingStore,
  noStoreCalls,
  startSessionApp,
  User,
  userOf,
} from "./support/sessionServer.js";

const SECRET = Redacted.make("session-now-secret-0123456789-abcdefghijkl");

/** The shared Redis of the run (see test/support/globalSetup.ts). */
const redisStore = () => {
  const redis = inject("redis");
  if ("error" in redis) throw new Error(`No Redis for the Redis tests: ${redis.error}`);
  return RedisSessionStore.layer({
    host: "127.0.0.1",
    port: redis.port,
    keyPrefix: `test:session-now:${randomUUID()}:`,
  });
};

/** What `SessionGuard.canActivate` answered: `true` itself, an Effect, or anything else. */
type Answer = "true" | "Effect" | "other";

const answerOf = (answer: unknown): Answer =>
  answer === true ? "true" : Effect.isEffect(answer) ? "Effect" : "other";

/** A classic app with sessions on `store`, its guard's answers and its store's calls. */
const classicApp = (
  store: Layer.Layer<SessionStore, unknown>,
  options: SessionOptions<User> = {},
) => {
  const answers: Array<Answer> = [];
  const calls = noStoreCalls();

  /** `SessionGuard` asked on the request's fiber, as `@UseGuards` asks it; its answer kept. */
  @Injectable()
  class RecordingSessionGuard implements CanActivate {
    constructor(private readonly sessions: SessionService<User>) {}

    canActivate(context: ExecutionContext) {
      const answer = new SessionGuard(this.sessions).canActivate(context);
      answers.push(answerOf(answer));
      return answer;
    }
  }

  @Controller("auth")
  class AuthController {
    constructor(private readonly sessions: SessionService<User>) {}

    // An Effect, run on the request's fiber: the session starts at the test clock's time.
    @Post("login/:id")
    @HttpCode(204)
    login(@Param("id") id: string) {
      return this.sessions.session.create(userOf(id));
    }
  }

  @Controller("me")
  @UseGuards(SessionGuard)
  class MeController {
    @Get()
    me(@CurrentUser() user: User) {
      return user;
    }
  }

  @Controller("probe")
  @UseGuards(RecordingSessionGuard)
  class ProbeController {
    @Get()
    probe(@CurrentUser() user: User) {
      return user;
    }
  }

  @Module({
    imports: [
      SessionModule.forRoot({ ...options, schema: User, store: countingStore(store, calls) }),
    ],
    controllers: [AuthController, MeController, ProbeController],
  })
  class AppModule {}

  return Effect.map(baseUrlOf(serveTest(StrataApp.layer(AppModule))), (url) => ({
    url,
    answers,
    calls,
  }));
};

const http = (jar: CookieJar, method: string, path: string) =>
  Effect.promise(() => jar.fetch(method, path));

const signIn = (jar: CookieJar, id = "alice") =>
  Effect.map(http(jar, "POST", `/auth/login/${id}`), (response) => {
    expect(response.status).toBe(204);
    expect(jar.get(COOKIE)).toBeDefined();
  });

/** `cookie` refused on the guarded route and the one reading the session: 401, cleared. */
const expectRefused = (jar: CookieJar, cookie: string) =>
  Effect.gen(function* () {
    for (const path of ["/me", "/probe"]) {
      jar.set(COOKIE, cookie);
      const response = yield* http(jar, "GET", path);
      expect(response.status, path).toBe(401);
      expect(response.body, path).toEqual(UNAUTHORIZED);
      expect(response.setCookies, path).toHaveLength(1);
      expect(clears(response.setCookies[0]), path).toBe(true);
    }
  });

/** The stores that answer at once. */
const stores = [
  { name: "sealed cookie", layer: () => CookieSessionStore.layer({ secret: SECRET }) },
  { name: "memory", layer: () => MemorySessionStore.layer() },
] as const;

describe.each(stores)("SessionGuard and @CurrentUser() on the $name store", ({ layer }) => {
  it.scoped(
    "a valid session passes at once: canActivate answers true, @CurrentUser() gets the data, no load, no Set-Cookie",
    () =>
      Effect.gen(function* () {
        const app = yield* classicApp(layer());
        const jar = new CookieJar(app.url);
        yield* signIn(jar);
        for (const path of ["/me", "/probe", "/me"]) {
          const response = yield* http(jar, "GET", path);
          expect(response.status, path).toBe(200);
          expect(response.body, path).toEqual(userOf("alice"));
          expect(response.setCookies, path).toEqual([]);
        }
        // Synchronously, on the request's fiber: `true` itself, not an Effect of it.
        expect(app.answers).toEqual(["true"]);
        // The store answered at once every time, its `load` never asked.
        expect(app.calls.loadNow).toBe(3);
        expect(app.calls.load).toBe(0);
        expect(app.calls.update).toBe(0);
      }),
  );

  it.scoped(
    "a session due a write-back takes the Effect path: it passes, and the response sets the cookie again",
    () =>
      Effect.gen(function* () {
        const app = yield* classicApp(layer());
        const jar = new CookieJar(app.url);
        yield* signIn(jar);
        // Past the touch interval, well before the idle timeout.
        yield* TestClock.adjust(DEFAULT_TOUCH_INTERVAL);
        const due = yield* http(jar, "GET", "/probe");
        expect(due.status).toBe(200);
        expect(due.body).toEqual(userOf("alice"));
        expect(due.setCookies).toHaveLength(1);
        expect(due.setCookies[0].startsWith(`${COOKIE}=`)).toBe(true);
        expect(clears(due.setCookies[0])).toBe(false);
        expect(app.answers).toEqual(["Effect"]);
        expect(app.calls.load).toBe(1);
        expect(app.calls.update).toBe(1);
        // Written back: known at once again, nothing more to write.
        const after = yield* http(jar, "GET", "/probe");
        expect(after.status).toBe(200);
        expect(after.body).toEqual(userOf("alice"));
        expect(after.setCookies).toEqual([]);
        expect(app.answers).toEqual(["Effect", "true"]);
        expect(app.calls.load).toBe(1);
        // Through the plain guard too, once due again.
        yield* TestClock.adjust(DEFAULT_TOUCH_INTERVAL);
        const me = yield* http(jar, "GET", "/me");
        expect(me.status).toBe(200);
        expect(me.body).toEqual(userOf("alice"));
        expect(me.setCookies).toHaveLength(1);
        expect(clears(me.setCookies[0])).toBe(false);
        expect(app.calls.update).toBe(2);
      }),
  );

  it.scoped("an expired session: 401 in the standard shape, the cookie cleared", () =>
    Effect.gen(function* () {
      const app = yield* classicApp(layer());
      const jar = new CookieJar(app.url);
      yield* signIn(jar);
      const value = jar.get(COOKIE) as string;
      yield* TestClock.adjust(DEFAULT_IDLE_TIMEOUT);
      yield* expectRefused(jar, value);
      expect(app.answers).toEqual(["Effect"]);
    }),
  );

  it.scoped(
    "a session written back moments ago ends at its absolute lifetime all the same: 401, cleared",
    () =>
      Effect.gen(function* () {
        const app = yield* classicApp(layer(), { absoluteTimeout: "1 hour" });
        const jar = new CookieJar(app.url);
        yield* signIn(jar);
        yield* TestClock.adjust("58 minutes");
        const written = yield* http(jar, "GET", "/probe");
        expect(written.status).toBe(200);
        expect(written.setCookies).toHaveLength(1);
        // Two minutes later: not due a write-back, but an hour after sign-in.
        yield* TestClock.adjust("2 minutes");
        const ended = yield* http(jar, "GET", "/probe");
        expect(ended.status).toBe(401);
        expect(ended.body).toEqual(UNAUTHORIZED);
        expect(clears(ended.setCookies[0])).toBe(true);
        expect(app.answers).toEqual(["Effect", "Effect"]);
      }),
  );

  it.scoped("a tampered cookie: 401 in the standard shape, the cookie cleared", () =>
    Effect.gen(function* () {
      const app = yield* classicApp(layer());
      const jar = new CookieJar(app.url);
      yield* signIn(jar);
      const value = jar.get(COOKIE) as string;
      const tampered = `${value.slice(0, 12)}${value[12] === "A" ? "B" : "A"}${value.slice(13)}`;
      yield* expectRefused(jar, tampered);
      expect(app.answers).toEqual(["Effect"]);
      // The genuine cookie still passes at once.
      jar.set(COOKIE, value);
      expect((yield* http(jar, "GET", "/probe")).status).toBe(200);
      expect(app.answers).toEqual(["Effect", "true"]);
    }),
  );

  it.scoped("no cookie: canActivate answers an Effect, which answers 401 and sets nothing", () =>
    Effect.gen(function* () {
      const app = yield* classicApp(layer());
      const response = yield* http(new CookieJar(app.url), "GET", "/probe");
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHORIZED);
      expect(response.setCookies).toEqual([]);
      expect(app.answers).toEqual(["Effect"]);
      expect(app.calls.loadNow + app.calls.load).toBe(0);
    }),
  );
});

describe("SessionGuard on the Redis store (no loadNow)", () => {
  it.scoped("a valid session passes through the Effect canActivate answers", () =>
    Effect.gen(function* () {
      const app = yield* classicApp(redisStore());
      const jar = new CookieJar(app.url);
      yield* signIn(jar);
      const probe = yield* http(jar, "GET", "/probe");
      expect(probe.status).toBe(200);
      expect(probe.body).toEqual(userOf("alice"));
      expect(probe.setCookies).toEqual([]);
      const anonymous = yield* http(new CookieJar(app.url), "GET", "/probe");
      expect(anonymous.status).toBe(401);
      expect(app.answers).toEqual(["Effect", "Effect"]);
      expect(app.calls.load).toBe(1);
      expect(app.calls.loadNow).toBe(0);
    }),
  );
});

describe("Session.current on the Effect face", () => {
  const effectStores = [
    { name: "memory", layer: () => MemorySessionStore.layer(), atOnce: true },
    { name: "Redis", layer: redisStore, atOnce: false },
  ] as const;

  it.scoped.each(effectStores)(
    "$name store: the same data whether the store answers at once or not, written back when due",
    ({ layer, atOnce }) =>
      Effect.gen(function* () {
        const app = yield* startSessionApp(layer());
        const jar = new CookieJar(app.url);
        expect((yield* http(jar, "POST", "/login/alice")).status).toBe(204);
        for (const path of ["/maybe", "/me", "/twice"]) {
          const response = yield* http(jar, "GET", path);
          expect(response.status, path).toBe(200);
          expect(response.setCookies, path).toEqual([]);
        }
        expect((yield* http(jar, "GET", "/maybe")).body).toEqual({ user: userOf("alice") });
        expect((yield* http(jar, "GET", "/me")).body).toEqual(userOf("alice"));
        expect((yield* http(jar, "GET", "/twice")).body).toEqual([
          userOf("alice"),
          userOf("alice"),
        ]);
        // One read a request: at once where the store can, else its `load`.
        expect(app.calls).toMatchObject(
          atOnce ? { loadNow: 6, load: 0, update: 0 } : { loadNow: 0, load: 6, update: 0 },
        );
        yield* TestClock.adjust(DEFAULT_TOUCH_INTERVAL);
        const due = yield* http(jar, "GET", "/maybe");
        expect(due.body).toEqual({ user: userOf("alice") });
        expect(due.setCookies).toHaveLength(1);
        expect(clears(due.setCookies[0])).toBe(false);
        expect(app.calls.update).toBe(1);
        expect(app.calls.load).toBe(atOnce ? 1 : 7);
        // Without a cookie, and with one that is no session: None, the latter cleared.
        expect((yield* http(new CookieJar(app.url), "GET", "/maybe")).body).toEqual({
          user: null,
        });
        jar.set(COOKIE, "no-such-session");
        const unknown = yield* http(jar, "GET", "/maybe");
        expect(unknown.body).toEqual({ user: null });
        expect(clears(unknown.setCookies[0])).toBe(true);
        expect(jar.get(COOKIE)).toBeUndefined();
      }),
  );
});
