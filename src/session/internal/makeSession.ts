/**
 * The session service over a store: what each request's cookie means (timeouts, Schema),
 * written back and cleared through the request's {@link CookieSink}. A request keeps its state
 * on itself, so a session read twice is loaded once, and a route that never asks pays nothing.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Clock from "effect/Clock";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import { ServiceUnavailableError, UnauthorizedError } from "../../http/HttpError.js";
import type { SessionApi } from "../SessionApi.js";
import type { CookieWrite, SessionCookie } from "../SessionCookie.js";
import type { SessionConfig } from "../SessionOptions.js";
import type { SessionRecord, SessionStoreError, SessionStoreService } from "../SessionStore.js";
import type { SessionTooLarge } from "../SessionTooLarge.js";
import { CookieSink, type PendingCookie } from "./CookieSink.js";
import { fiberNow, recordReadNow } from "./SessionNow.js";

/** One request's session, as loaded and as changed; the cookie write its response gets. */
class RequestState<A> implements PendingCookie {
  hooked = false;
  loaded = false;
  /** The live session's cookie value and record, once known. */
  cookieValue: string | undefined = undefined;
  record: SessionRecord | undefined = undefined;
  data: Option.Option<A> = Option.none();
  /** What the response will do to the cookie. */
  write: CookieWrite | undefined = undefined;

  constructor(
    readonly secure: boolean,
    private readonly cookie: SessionCookie,
  ) {}

  apply(response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse {
    return this.write === undefined
      ? response
      : this.cookie.apply(response, this.write, this.secure);
  }

  header(): string | undefined {
    return this.write === undefined ? undefined : this.cookie.header(this.write, this.secure);
  }
}

const unauthorized = new UnauthorizedError();
const unavailable = new ServiceUnavailableError();

/** A store failure for the log: its message and its cause's, never its data. */
const describe = (error: SessionStoreError | SessionTooLarge): string =>
  error._tag === "SessionTooLarge"
    ? `the sealed session is ${error.size} characters, more than a cookie holds (${error.limit})`
    : error.cause instanceof Error
      ? `${error.message}: ${error.cause.message}`
      : error.message;

/**
 * The session service of `schema`'s data on `store`, configured by `config`, its cookie `cookie`.
 */
export const makeSession = <A, I>(
  schema: Schema.Schema<A, I>,
  config: SessionConfig<A>,
  store: SessionStoreService,
  cookie: SessionCookie,
): SessionApi<A> => {
  const decode = Schema.decodeUnknownOption(schema);
  const encode = Schema.encode(schema);
  // Each request's state lives on the request object, under a symbol of this service's own:
  // a WeakMap keyed by requests costs about a microsecond a request in V8 (ephemerons).
  const stateKey = Symbol("effect-strata/session/RequestState");
  // Decoded data, by the record it was decoded from: a store that answers the same record
  // object for the same cookie (the sealed-cookie store's cache) is decoded once.
  const decoded = new WeakMap<SessionRecord, Option.Option<A>>();
  const { idleMillis, absoluteMillis, touchMillis } = config;

  const expiresAt = (record: SessionRecord) =>
    Math.min(record.touchedAt + idleMillis, record.createdAt + absoluteMillis);
  const set = (value: string, record: SessionRecord, now: number): CookieWrite => ({
    _tag: "Set",
    value,
    maxAge: Math.max(0, Math.floor((expiresAt(record) - now) / 1_000)),
  });
  const clear: CookieWrite = { _tag: "Clear" };

  const stateOf = (request: HttpServerRequest.HttpServerRequest): RequestState<A> => {
    const holder = request as unknown as { [stateKey]?: RequestState<A> };
    let state = holder[stateKey];
    if (state === undefined) {
      state = new RequestState<A>(config.isSecure(request), cookie);
      holder[stateKey] = state;
    }
    return state;
  };

  const decodeRecord = (record: SessionRecord): Option.Option<A> => {
    let data = decoded.get(record);
    if (data === undefined) {
      data = decode(record.data, { errors: "first" });
      decoded.set(record, data);
    }
    return data;
  };

  /** Hands the cookie write the request's state holds to the sink, if there is one. */
  const flush = (state: RequestState<A>) =>
    state.write === undefined ? Effect.void : Effect.flatMap(CookieSink, (sink) => sink(state));

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

  /** A store failure: logged (message only), answered 503. */
  const failed = (error: SessionStoreError) =>
    Effect.zipRight(
      Effect.logWarning(`Session store unavailable: ${describe(error)}`),
      Effect.fail(unavailable),
    );

  /** A new session refused: too large for its cookie (logged, its own 422), or the store's 503. */
  const refused = (
    error: SessionStoreError | SessionTooLarge,
  ): Effect.Effect<never, ServiceUnavailableError | SessionTooLarge> =>
    error._tag === "SessionTooLarge"
      ? Effect.zipRight(
          Effect.logWarning(
            `Session not created: ${describe(error)}; keep less in the session, or use a server-side store`,
          ),
          Effect.fail(error),
        )
      : failed(error);

  /** No session: forgotten for this request, its cookie cleared. */
  const end = (state: RequestState<A>) => {
    state.cookieValue = undefined;
    state.record = undefined;
    state.data = Option.none();
    state.write = clear;
  };

  /** Writes back a session in use whose last write-back is `touchInterval` old. */
  const touch = (state: RequestState<A>, value: string, record: SessionRecord, now: number) => {
    const touched: SessionRecord = { ...record, touchedAt: now };
    return store.update(value, touched, expiresAt(touched)).pipe(
      Effect.map((updated) => {
        if (Option.isNone(updated)) {
          end(state);
          return state.data;
        }
        state.cookieValue = updated.value;
        state.record = touched;
        state.write = set(updated.value, touched, now);
        return state.data;
      }),
      // Not written back this time: the session stays valid until its next write-back.
      Effect.catchAll((error) =>
        Effect.as(Effect.logWarning(`Session write-back failed: ${describe(error)}`), state.data),
      ),
    );
  };

  /** No session after all: forgotten, the cookie cleared on the response. */
  const gone = (state: RequestState<A>) => {
    end(state);
    return Effect.as(flush(state), state.data);
  };

  /** `record`'s data at `now`: `None` once expired, or when it does not match the Schema. */
  const liveData = (record: SessionRecord, now: number): Option.Option<A> =>
    now >= expiresAt(record) ? Option.none() : decodeRecord(record);

  /** The request's session is `record`, under `value`, holding `data`. */
  const keep = (
    state: RequestState<A>,
    value: string,
    record: SessionRecord,
    data: Option.Option<A>,
  ) => {
    state.cookieValue = value;
    state.record = record;
    state.data = data;
  };

  /**
   * Reads the request's session once: checked against its timeouts and the Schema. A cookie
   * that is no session is cleared, a session due a write-back written back: the cookie write
   * goes to the sink here, so that the common case (a valid session, no write) takes no step
   * for it.
   */
  const load = (
    state: RequestState<A>,
    request: HttpServerRequest.HttpServerRequest,
  ): Effect.Effect<Option.Option<A>, ServiceUnavailableError> => {
    if (state.loaded) return Effect.succeed(state.data);
    state.loaded = true;
    const value = cookie.read(request, state.secure);
    if (value === undefined) return Effect.succeedNone;
    return Clock.clockWith((clock) =>
      Effect.matchEffect(store.load(value), {
        onFailure: failed,
        onSuccess: (found) => {
          if (Option.isNone(found)) return gone(state);
          const record = found.value;
          const now = clock.unsafeCurrentTimeMillis();
          const data = liveData(record, now);
          // Expired, or written under another Schema: gone, wherever it was kept.
          if (Option.isNone(data)) {
            return Effect.zipRight(Effect.ignore(store.destroy(value, record)), gone(state));
          }
          keep(state, value, record, data);
          return now - record.touchedAt >= touchMillis
            ? Effect.tap(touch(state, value, record, now), () => flush(state))
            : Effect.succeed(data);
        },
      }),
    );
  };

  /** Ends the session the request came with, where the store keeps it. */
  const endCurrent = (state: RequestState<A>, request: HttpServerRequest.HttpServerRequest) =>
    Effect.flatMap(load(state, request), () => {
      const { cookieValue, record } = state;
      end(state);
      return cookieValue === undefined || record === undefined
        ? Effect.void
        : Effect.catchAll(store.destroy(cookieValue, record), failed);
    });

  /** Keeps `record` as a new session (a new cookie value) for the request. */
  const begin = (state: RequestState<A>, record: SessionRecord, data: A, now: number) =>
    Effect.map(Effect.catchAll(store.create(record, expiresAt(record)), refused), (value) => {
      state.cookieValue = value;
      state.record = record;
      state.data = Option.some(data);
      state.write = set(value, record, now);
    });

  /**
   * The request's session without a step, when the store answers at once and the session is
   * valid and not due a write-back (recorded on the request as `load` does); `undefined` when
   * that takes `load` (which also answers and clears what is no session).
   */
  const loadNow = store.loadNow;
  const readNow = (
    request: HttpServerRequest.HttpServerRequest,
    now: number,
  ): Option.Option<A> | undefined => {
    const state = stateOf(request);
    if (state.loaded) return state.data;
    if (loadNow === undefined) return undefined;
    const value = cookie.read(request, state.secure);
    if (value === undefined) return undefined;
    const found = loadNow(value, now);
    if (found === undefined || Option.isNone(found)) return undefined;
    const record = found.value;
    if (now - record.touchedAt >= touchMillis) return undefined;
    const data = liveData(record, now);
    if (Option.isNone(data)) return undefined;
    state.loaded = true;
    keep(state, value, record, data);
    return data;
  };

  // The hot path: a context read, the store's load, and the answer.
  const loadCurrent = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    load(stateOf(request), request),
  );
  // One step when the store answers at once (see `readNow`).
  const current =
    loadNow === undefined
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
      state.write = clear;
      return endCurrent(state, request);
    }, true),
    destroyAllFor: (userId) => Effect.catchAll(store.destroyAllFor(userId), failed),
  };
  if (loadNow !== undefined) recordReadNow(session, readNow);
  return session;
};
