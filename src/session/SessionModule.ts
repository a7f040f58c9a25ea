/**
 * `SessionModule.forRoot(...)`: sessions on the classic face. It builds the `Session` service
 * once per app (its store in a scope of its own, closed when the app closes) and provides and
 * exports `SessionService`, `SessionGuard` and what `@CurrentUser()` reads with.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import type * as Redacted from "effect/Redacted";
import type * as Schema from "effect/Schema";
import * as Scope from "effect/Scope";
import { type DynamicModule, Module } from "../di/Module.js";
import { StartupError } from "../di/StartupError.js";
import * as CookieSessionStore from "./CookieSessionStore.js";
import { CurrentUserPipe, OptionalCurrentUserPipe } from "./CurrentUser.js";
import * as MemorySessionStore from "./MemorySessionStore.js";
import * as RedisSessionStore from "./RedisSessionStore.js";
import { Session } from "./Session.js";
import { SessionGuard } from "./SessionGuard.js";
import type { SessionOptions } from "./SessionOptions.js";
import { SessionService } from "./SessionService.js";
import type { SessionStore } from "./SessionStore.js";

/**
 * What `SessionModule.forRoot` takes: the Schema of the session data, the store, and the
 * {@link SessionOptions} (timeouts, cookie).
 *
 * @since 0.1.0
 * @category classic
 */
export interface SessionModuleOptions<A, I> extends SessionOptions<A> {
  /** The session data's Schema (a `Schema.Class` or any Schema encoding to JSON). */
  readonly schema: Schema.Schema<A, I>;
  /**
   * Where sessions live: `"cookie"` (default: sealed in the cookie, see `CookieSessionStore`),
   * `"memory"` (server-side in this process, for tests), `{ redis: ioredisOptions }`
   * (server-side in a Redis shared by every instance, see `RedisSessionStore`), or a Layer of
   * your own `SessionStore`.
   */
  readonly store?:
    | "cookie"
    | "memory"
    | { readonly redis: RedisSessionStore.RedisSessionStoreOptions }
    | Layer.Layer<SessionStore, unknown>;
  /**
   * The cookie store's sealing secret (at least 32 characters). Without it, a random
   * per-process key and a logged warning (one instance only, sessions end at restart).
   */
  readonly secret?: string | Redacted.Redacted<string>;
  /**
   * Makes `SessionService` and `SessionGuard` visible to every module of the app (default
   * `true`: a session is app-wide).
   */
  readonly global?: boolean;
}

const storeLayer = <A, I>(
  options: SessionModuleOptions<A, I>,
): Layer.Layer<SessionStore, unknown> => {
  const store = options.store ?? "cookie";
  if (store === "cookie") {
    return CookieSessionStore.layer(options.secret === undefined ? {} : { secret: options.secret });
  }
  if (store === "memory") return MemorySessionStore.layer();
  return "redis" in store ? RedisSessionStore.layer(store.redis) : store;
};

/** The classic service over a `Session` built in a scope of its own. */
const makeService = <A, I>(
  options: SessionModuleOptions<A, I>,
): Effect.Effect<SessionService<A>, StartupError> =>
  Effect.gen(function* () {
    const scope = yield* Scope.make();
    const typed = Session.make(options.schema);
    const layer = typed.layer(options).pipe(Layer.provide(storeLayer(options)));
    const context = yield* Layer.buildWithScope(layer, scope).pipe(
      Effect.tapErrorCause((cause) => Scope.close(scope, Exit.failCause(cause))),
      Effect.mapError((error) =>
        error instanceof StartupError
          ? error
          : new StartupError({
              message: "SessionModule: the session store failed to start",
              cause: error,
            }),
      ),
    );
    return new SessionService(Context.get(context, typed), scope);
  });

/**
 * Sessions for the classic face.
 *
 * @example
 * const User = Schema.Struct({ id: Schema.String, name: Schema.String }); // the session's data
 * type User = typeof User.Type;
 * declare class MeController {} // @UseGuards(SessionGuard), see SessionGuard
 *
 * @Module({
 *   imports: [SessionModule.forRoot({ schema: User, secret: process.env.SESSION_SECRET })],
 *   controllers: [MeController],
 * })
 * class AppModule {}
 *
 * @since 0.1.0
 * @category classic
 */
@Module({})
export class SessionModule {
  /**
   * The module configured with `options`: it exports {@link SessionService} (typed by
   * `options.schema` where it is injected as `SessionService<User>`), {@link SessionGuard} and
   * the readers of `@CurrentUser()`. In tests, replace `SessionService` with
   * `TestSession.service(user)` to run requests signed in.
   */
  static forRoot<A, I>(options: SessionModuleOptions<A, I>): DynamicModule {
    return {
      module: SessionModule,
      global: options.global !== false,
      providers: [
        { token: SessionService, useFactory: () => makeService(options) },
        {
          token: SessionGuard,
          useFactory: (sessions: SessionService) => new SessionGuard(sessions),
          inject: [SessionService],
        },
        {
          token: CurrentUserPipe,
          useFactory: (sessions: SessionService) => new CurrentUserPipe(sessions),
          inject: [SessionService],
        },
        {
          token: OptionalCurrentUserPipe,
          useFactory: (sessions: SessionService) => new OptionalCurrentUserPipe(sessions),
          inject: [SessionService],
        },
      ],
      exports: [SessionService, SessionGuard, CurrentUserPipe, OptionalCurrentUserPipe],
    };
  }
}
