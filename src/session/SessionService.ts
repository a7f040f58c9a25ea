/**
 * The classic face of sessions: an injectable service with Promise methods over the `Session`
 * service (provided and exported by `SessionModule.forRoot`). Its methods are the facade
 * boundary where Effects run.
 *
 * @since 0.1.0
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Cause from "effect/Cause";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Option from "effect/Option";
import * as Scope from "effect/Scope";
import type { RequestContext } from "../http/RequestContext.js";
import type { HttpArgumentsHost } from "../pipeline/ExecutionContext.js";
import { runPromiseExitOnCaller } from "../pipeline/internal/callerFiber.js";
import { CookieSink, type CookieSinkService } from "./internal/CookieSink.js";
import type { SessionApi } from "./Session.js";

/** The value of an exit, or its failure thrown (an `HttpError` stays itself). */
const unwrap = <A>(exit: Exit.Exit<A, unknown>): A => {
  if (Exit.isSuccess(exit)) return exit.value;
  const failure = Cause.failureOption(exit.cause);
  throw Option.isSome(failure) ? failure.value : Cause.squash(exit.cause);
};

/** The platform request behind a classic request (what `@Req()` injects). */
const platformRequest = (request: RequestContext): HttpServerRequest.HttpServerRequest => {
  if (request.req === undefined) {
    throw new Error("SessionService: give it the request object `@Req()` injects");
  }
  return request.req;
};

/**
 * `effect` run on `request` (the object `@Req()` injects, or a guard's `ExecutionContext`). On
 * the request's own fiber, where guards and pipes run, the request is already in context: it is
 * used as is, and the cookie goes through the response's pre-response handler. Elsewhere it is
 * provided (a copy of the context, some microseconds).
 *
 * @since 0.1.0
 * @category classic
 */
export const onRequest = <B, E>(
  effect: Effect.Effect<B, E, HttpServerRequest.HttpServerRequest>,
  request: RequestContext,
): Effect.Effect<B, E> =>
  Effect.contextWithEffect((context: Context.Context<never>) => {
    const inContext = Context.getOption(
      context as Context.Context<HttpServerRequest.HttpServerRequest>,
      HttpServerRequest.HttpServerRequest,
    );
    return Option.isSome(inContext) && inContext.value === request.req
      ? (effect as Effect.Effect<B, E>)
      : Effect.provideService(
          effect,
          HttpServerRequest.HttpServerRequest,
          platformRequest(request),
        );
  });

/**
 * Writes the cookie on the request's `StrataResponse`, which the classic route adds to the
 * handler's response, unless a pre-response handler of the request's fiber already will.
 */
const strataResponseSink =
  (request: RequestContext): CookieSinkService =>
  (pending) =>
    Effect.sync(() => {
      if (pending.hooked) return;
      const header = pending.header();
      if (header === undefined) return;
      const host = request as Partial<HttpArgumentsHost>;
      if (typeof host.getResponse !== "function") {
        throw new Error("SessionService: give it the request object `@Req()` injects");
      }
      host.getResponse().setHeader("set-cookie", header);
    });

/**
 * `effect` run on `request` from a Promise method of a handler (on a child of the request's
 * fiber when called from it, see `runPromiseExitOnCaller`): the cookie is written on the
 * request's `StrataResponse`.
 */
const runOnRequest = <B>(
  effect: Effect.Effect<B, unknown, HttpServerRequest.HttpServerRequest>,
  request: RequestContext,
): Promise<B> =>
  runPromiseExitOnCaller(
    onRequest(effect, request).pipe(Effect.provideService(CookieSink, strataResponseSink(request))),
  ).then(unwrap);

/**
 * Sessions for classic code (exported by `SessionModule.forRoot`). Each method takes the
 * request `@Req()` injects; failures are thrown as `HttpError`s (401 `UnauthorizedError`,
 * 503 `ServiceUnavailableError` when the store cannot answer).
 *
 * @example
 * const User = Schema.Struct({ id: Schema.String, name: Schema.String }); // the session's data
 * type User = typeof User.Type;
 *
 * @Controller("auth")
 * class AuthController {
 *   constructor(private readonly sessions: SessionService<User>) {}
 *
 *   @Post("logout")
 *   async logout(@Req() req: RequestContext) {
 *     await this.sessions.destroy(req);
 *   }
 * }
 *
 * @since 0.1.0
 * @category classic
 */
export class SessionService<A = unknown> {
  /**
   * A classic face over the Effect `session` service. `scope` (the one its store was built
   * in) is closed when the app closes.
   */
  constructor(
    readonly session: SessionApi<A>,
    private readonly scope?: Scope.CloseableScope,
  ) {}

  /** The signed-in data, `undefined` without a valid session (see `SessionApi.current`). */
  current(request: RequestContext): Promise<A | undefined> {
    return runOnRequest(Effect.map(this.session.current, Option.getOrUndefined), request);
  }

  /** The signed-in data; throws a 401 `UnauthorizedError` without a valid session. */
  require(request: RequestContext): Promise<A> {
    return runOnRequest(this.session.require, request);
  }

  /** Signs in with a new session holding `data` (see `SessionApi.create`). */
  create(request: RequestContext, data: A): Promise<void> {
    return runOnRequest(this.session.create(data), request);
  }

  /** The same session under a new cookie value (see `SessionApi.rotate`). */
  rotate(request: RequestContext): Promise<void> {
    return runOnRequest(this.session.rotate, request);
  }

  /** Signs out (see `SessionApi.destroy`). */
  destroy(request: RequestContext): Promise<void> {
    return runOnRequest(this.session.destroy, request);
  }

  /** Ends every session of `userId` (see `SessionApi.destroyAllFor`). */
  destroyAllFor(userId: string): Promise<void> {
    return runPromiseExitOnCaller(this.session.destroyAllFor(userId)).then(unwrap);
  }

  /** Releases the store (its Redis connection) when the app closes. */
  onModuleDestroy(): Effect.Effect<void> {
    return this.scope === undefined ? Effect.void : Scope.close(this.scope, Exit.void);
  }
}
