/**
 * The session service over a store: what each request's cookie means (timeouts, Schema),
 * written back and cleared through the request's `CookieSink`. A request keeps its state
 * on itself, so a session read twice is loaded once, and a route that never asks pays nothing.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Clock from "effect/Clock";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import type { ServiceUnavailableError } from "../../http/HttpError.js";
import type { SessionApi } from "../SessionApi.js";
import type { SessionCookie } from "../SessionCookie.js";
import type { SessionConfig } from "../SessionOptions.js";
import type { SessionRecord, SessionStoreService } from "../SessionStore.js";
import { clearCookie, type RequestState, requestStates } from "./RequestState.js";
import { fiberNow, recordReadNow } from "./SessionNow.js";
import { failed, refused, unauthorized } from "./sessionFailures.js";
import { sessionLifetime } from "./sessionLifetime.js";
import { flush, sessionLoad } from "./sessionLoad.js";

/**
 * The session service of `schema`'s data on `store`, configured by `config`, its cookie `cookie`.
 */
export const makeSession = <A, I>(
  schema: Schema.Schema<A, I>,
  config: SessionConfig<A>,
  store: SessionStoreService,
  cookie: SessionCookie,
): SessionApi<A> => {
  const encode = Schema.encode(schema);
  const stateOf = requestStates<A>(config.isSecure, cookie);
  const lifetime = sessionLifetime(config);
  const { load, readNow } = sessionLoad<A>({
    store,
    cookie,
    decode: Schema.decodeUnknownOption(schema),
    lifetime,
    touchMillis: config.touchMillis,
    stateOf,
  });

  /**
   * Runs `f` on the request's state, then flushes what it decided for the cookie: once it
   * succeeded, or (`always`) whatever its outcome.
   */
  const withState = <B, E>(
    f: (
      state: RequestState<A>,
      request: HttpServerRequest.HttpServerRequest,
    ) => Effect.Effect<B, E>,
    always = false,
  ) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const state = stateOf(request);
      const run = f(state, request);
      return always
        ? Effect.ensuring(
            run,
            Effect.suspend(() => flush(state)),
          )
        : Effect.tap(run, () => flush(state));
    });

  /** Ends the session the request came with, where the store keeps it. */
  const endCurrent = (state: RequestState<A>, request: HttpServerRequest.HttpServerRequest) =>
    Effect.flatMap(load(state, request), () => {
      const { cookieValue, record } = state;
      state.end();
      return cookieValue === undefined || record === undefined
        ? Effect.void
        : Effect.catchAll(store.destroy(cookieValue, record), failed);
    });

  /** Keeps `record` as a new session (a new cookie value) for the request. */
  const begin = (state: RequestState<A>, record: SessionRecord, data: A, now: number) =>
    Effect.map(
      Effect.catchAll(store.create(record, lifetime.expiresAt(record)), refused),
      (value) => {
        state.keep(value, record, Option.some(data));
        state.write = lifetime.set(value, record, now);
      },
    );

  // The hot path: a context read, the store's load, and the answer.
  const loadCurrent = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    load(stateOf(request), request),
  );
  // One step when the store answers at once (see `readNow`).
  const current =
    store.loadNow === undefined
      ? loadCurrent
      : Effect.withFiberRuntime<Option.Option<A>, ServiceUnavailableError, never>((fiber) => {
          const request = Context.getOption(
            fiber.currentContext as Context.Context<HttpServerRequest.HttpServerRequest>,
            HttpServerRequest.HttpServerRequest,
          );
          const data =
            request._tag === "Some" ? readNow(request.value, fiberNow(fiber)) : undefined;
          return data === undefined ? (loadCurrent as never) : Effect.succeed(data);
        });

  const session: SessionApi<A> = {
    current,
    require: Effect.flatMap(current, (data) =>
      Option.isSome(data) ? Effect.succeed(data.value) : Effect.fail(unauthorized),
    ),
    create: (data) =>
      withState((state, request) =>
        Effect.gen(function* () {
          const encoded = yield* Effect.orDieWith(
            encode(data),
            () => new Error("Session.create: the data does not match the session's Schema"),
          );
          // Never the session the request came with (no fixation): that one ends first.
          yield* endCurrent(state, request);
          const now = yield* Clock.currentTimeMillis;
          const userId = config.userId(data);
          yield* begin(state, { data: encoded, userId, createdAt: now, touchedAt: now }, data, now);
        }),
      ),
    rotate: withState((state, request) =>
      Effect.gen(function* () {
        const data = yield* load(state, request);
        const { cookieValue, record } = state;
        if (Option.isNone(data) || cookieValue === undefined || record === undefined) {
          return yield* Effect.fail(unauthorized);
        }
        // The same session under a new value; its absolute lifetime still counts from sign-in.
        const now = yield* Clock.currentTimeMillis;
        yield* begin(state, { ...record, touchedAt: now }, data.value, now);
        yield* Effect.catchAll(store.destroy(cookieValue, record), failed);
      }),
    ),
    // The browser's cookie is cleared even when the store cannot be told (503).
    destroy: withState((state, request) => {
      state.write = clearCookie;
      return endCurrent(state, request);
    }, true),
    destroyAllFor: (userId) => Effect.catchAll(store.destroyAllFor(userId), failed),
  };
  if (store.loadNow !== undefined) recordReadNow(session, readNow);
  return session;
};
