// SessionService's Promise methods, called by a classic handler, run their store work on the
// request's fiber: the span and the log annotation an Effect middleware set on the request are
// seen by the store, over real HTTP.
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Middleware } from "../../src/effect/index.js";
import {
  Controller,
  EffectMiddleware,
  HttpCode,
  Module,
  Param,
  Post,
  Req,
  type RequestContext,
  type StrataApp,
} from "../../src/index.js";
import {
  MemorySessionStore,
  SessionModule,
  SessionService,
  SessionStore,
} from "../../src/session/index.js";
import { request, Test, type TestingModule } from "../../src/testing/index.js";

const User = Schema.Struct({ id: Schema.String });
type User = typeof User.Type;

/** What the store saw: the operation, the current span's name and the log annotations. */
const seen: Array<{ op: string; span: string | undefined; tag: unknown }> = [];

const record = (op: string) =>
  Effect.gen(function* () {
    const span = yield* Effect.option(Effect.currentSpan);
    const annotations = yield* Effect.logAnnotations;
    seen.push({
      op,
      span: Option.getOrUndefined(Option.map(span, (s) => s.name)),
      tag: Object.fromEntries(annotations).requestTag,
    });
  });

/** The memory store, recording what `create` and `destroyAllFor` see. */
const probingStore = Layer.effect(
  SessionStore,
  Effect.map(SessionStore, (memory) => ({
    ...memory,
    create: (...args: Parameters<typeof memory.create>) =>
      Effect.zipRight(record("create"), memory.create(...args)),
    destroyAllFor: (userId: string) =>
      Effect.zipRight(record("destroyAllFor"), memory.destroyAllFor(userId)),
  })),
).pipe(Layer.provide(MemorySessionStore.layer()));

@Controller("auth")
class AuthController {
  constructor(private readonly sessions: SessionService<User>) {}

  @Post("login/:id")
  @HttpCode(204)
  login(@Req() req: RequestContext, @Param("id") id: string) {
    return this.sessions.create(req, { id });
  }

  @Post("everywhere/:id")
  @HttpCode(204)
  everywhere(@Param("id") id: string) {
    return this.sessions.destroyAllFor(id);
  }
}

@Module({
  imports: [SessionModule.forRoot({ schema: User, store: probingStore })],
  controllers: [AuthController],
})
class AppModule {}

/** Effect middleware: a span and a log annotation around every request. */
class TracedRequests extends EffectMiddleware {
  build() {
    return Effect.succeed(
      Middleware.make((app) =>
        app.pipe(Effect.annotateLogs("requestTag", "req-9"), Effect.withSpan("classic-request")),
      ),
    );
  }
}

let module: TestingModule;
let app: StrataApp;

beforeAll(async () => {
  module = await Test.createTestingModule({ imports: [AppModule] }).compile();
  app = module.createStrataApp();
  app.use(new TracedRequests());
  await app.listen(0);
});
afterAll(async () => {
  await app.close();
  await module.close();
});

describe("SessionService on the request's fiber", () => {
  it("create and destroyAllFor see the request's span and log annotation", async () => {
    expect((await request(app, "POST", "/auth/login/ada")).status).toBe(204);
    expect((await request(app, "POST", "/auth/everywhere/ada")).status).toBe(204);
    expect(seen).toEqual([
      { op: "create", span: "classic-request", tag: "req-9" },
      { op: "destroyAllFor", span: "classic-request", tag: "req-9" },
    ]);
  });
});
