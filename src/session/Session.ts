/**
 * Sessions on the Effect face: one `Session` service, its data typed by a Schema the app gives.
 *
 * @example
 * const User = Schema.Struct({ id: Schema.String, name: Schema.String });
 * const UserSession = Session.make(User);
 *
 * const me = HttpLayerRouter.route("GET", "/me", Effect.map(UserSession.require, jsonResponse));
 * const SessionLive = UserSession.layer().pipe(
 *   Layer.provide(CookieSessionStore.layer({ secret: Redacted.make(process.env.SESSION_SECRET!) })),
 * );
 *
 * @since 0.1.0
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type * as Option from "effect/Option";
import type * as Schema from "effect/Schema";
import type { StartupError } from "../di/StartupError.js";
import type { ServiceUnavailableError, UnauthorizedError } from "../http/HttpError.js";
import { makeSession } from "./internal/makeSession.js";
import { makeTestSession } from "./internal/makeTestSession.js";
import type { SessionApi } from "./SessionApi.js";
import * as SessionCookie from "./SessionCookie.js";
import { resolve, type SessionOptions } from "./SessionOptions.js";
import { SessionStore } from "./SessionStore.js";
import type { SessionTooLarge } from "./SessionTooLarge.js";

export type { SessionApi } from "./SessionApi.js";

/**
 * A typed view of the {@link Session} service (the same service, read as `SessionApi<A>`),
 * made by {@link Session.make}, with its layers and accessors.
 *
 * @since 0.1.0
 * @category session
 */
export interface SessionTag<A> extends Context.Tag<Session, SessionApi<A>> {
  /** The Schema of the session data. */
  readonly schema: Schema.Schema<A, unknown>;
  /** The session service on the `SessionStore` in context (see {@link SessionOptions}). */
  readonly layer: (options?: SessionOptions<A>) => Layer.Layer<Session, StartupError, SessionStore>;
  /**
   * For tests: requests run signed in as `data` (signed out without it), with no cookie and no
   * sign-in; `create` signs in, `destroy` signs out, for every later request of the layer.
   */
  readonly layerTest: (data?: A) => Layer.Layer<Session>;
  /** {@link SessionApi.current} of the service in context. */
  readonly current: Effect.Effect<
    Option.Option<A>,
    ServiceUnavailableError,
    Session | HttpServerRequest.HttpServerRequest
  >;
  /** {@link SessionApi.require} of the service in context. */
  readonly require: Effect.Effect<
    A,
    UnauthorizedError | ServiceUnavailableError,
    Session | HttpServerRequest.HttpServerRequest
  >;
  /** {@link SessionApi.create} of the service in context. */
  readonly create: (
    data: A,
  ) => Effect.Effect<
    void,
    ServiceUnavailableError | SessionTooLarge,
    Session | HttpServerRequest.HttpServerRequest
  >;
  /** {@link SessionApi.rotate} of the service in context. */
  readonly rotate: Effect.Effect<
    void,
    UnauthorizedError | ServiceUnavailableError | SessionTooLarge,
    Session | HttpServerRequest.HttpServerRequest
  >;
  /** {@link SessionApi.destroy} of the service in context. */
  readonly destroy: Effect.Effect<
    void,
    ServiceUnavailableError,
    Session | HttpServerRequest.HttpServerRequest
  >;
  /** {@link SessionApi.destroyAllFor} of the service in context. */
  readonly destroyAllFor: (userId: string) => Effect.Effect<void, ServiceUnavailableError, Session>;
}

/** The service's key: every typed view ({@link Session.make}) reads the same service. */
const KEY = "effect-strata/session/Session";

/**
 * The session service. Read it through the typed view of {@link Session.make} (`yield*
 * UserSession`, `UserSession.require`); the tag itself gives `SessionApi<unknown>`, for code
 * that works with any app's session.
 *
 * @since 0.1.0
 * @category session
 */
export class Session extends Context.Tag(KEY)<Session, SessionApi<unknown>>() {
  /**
   * A typed view of the session whose data `schema` describes (its encoded form is what the
   * store keeps: JSON, so a `Schema.Date` is kept as a string). Make it once per app.
   */
  static make<A, I>(schema: Schema.Schema<A, I>): SessionTag<A> {
    class Typed extends Context.Tag(KEY)<Session, SessionApi<A>>() {
      static readonly schema = schema as Schema.Schema<A, unknown>;
      static readonly layer = (options: SessionOptions<A> = {}) =>
        Layer.effect(
          Typed,
          Effect.gen(function* () {
            const config = yield* resolve(options);
            const store = yield* SessionStore;
            return makeSession(schema, config, store, SessionCookie.make(config.cookieName));
          }),
        );
      static readonly layerTest = (data?: A) => Layer.sync(Typed, () => makeTestSession(data));
      static readonly current = Effect.flatMap(Typed, (session) => session.current);
      static readonly require = Effect.flatMap(Typed, (session) => session.require);
      static readonly create = (data: A) =>
        Effect.flatMap(Typed, (session) => session.create(data));
      static readonly rotate = Effect.flatMap(Typed, (session) => session.rotate);
      static readonly destroy = Effect.flatMap(Typed, (session) => session.destroy);
      static readonly destroyAllFor = (userId: string) =>
        Effect.flatMap(Typed, (session) => session.destroyAllFor(userId));
    }
    // `SessionTag` is the class's shape; only Effect's `this`-typed unification marker differs.
    return Typed as unknown as SessionTag<A>;
  }

  /**
   * The session service of `options.schema`'s data on the `SessionStore` in context:
   * `Session.make(schema).layer(options)`.
   */
  static layer<A, I>(
    options: SessionOptions<A> & { readonly schema: Schema.Schema<A, I> },
  ): Layer.Layer<Session, StartupError, SessionStore> {
    return Session.make(options.schema).layer(options);
  }
}
