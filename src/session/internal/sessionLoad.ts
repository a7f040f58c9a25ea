/**
 * Reading a request's session once: its cookie looked up in the store, checked against the
 * timeouts and the Schema, a cookie that is no session cleared, a session due a write-back
 * written back. The cookie write goes to the request's {@link CookieSink}.
 *
 * @since 0.1.0
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import type { ServiceUnavailableError } from "../../http/HttpError.js";
import type { SessionCookie } from "../SessionCookie.js";
import type { SessionRecord, SessionStoreService } from "../SessionStore.js";
import { CookieSink } from "./CookieSink.js";
import type { RequestState } from "./RequestState.js";
import { describe, failed } from "./sessionFailures.js";
import type { SessionLifetime } from "./sessionLifetime.js";

/** What loading a session uses: the store, the cookie, the Schema's decoder, the timeouts. */
export interface SessionLoadOptions<A> {
  readonly store: SessionStoreService;
  readonly cookie: SessionCookie;
  readonly decode: (data: unknown, options: { readonly errors: "first" }) => Option.Option<A>;
  readonly lifetime: SessionLifetime;
  /** How long after a write-back a session in use is written back again. */
  readonly touchMillis: number;
  readonly stateOf: (request: HttpServerRequest.HttpServerRequest) => RequestState<A>;
}

/** Hands the cookie write the request's state holds to the sink, if there is one. */
export const flush = <A>(state: RequestState<A>) =>
  state.write === undefined ? Effect.void : Effect.flatMap(CookieSink, (sink) => sink(state));

/** The loading steps of one session service. */
export const sessionLoad = <A>(options: SessionLoadOptions<A>) => {
  const { store, cookie, decode, lifetime, touchMillis, stateOf } = options;
  // Decoded data, by the record it was decoded from: a store that answers the same record
  // object for the same cookie (the sealed-cookie store's cache) is decoded once.
  const decoded = new WeakMap<SessionRecord, Option.Option<A>>();

  const decodeRecord = (record: SessionRecord): Option.Option<A> => {
    let data = decoded.get(record);
    if (data === undefined) {
      data = decode(record.data, { errors: "first" });
      decoded.set(record, data);
    }
    return data;
  };

  /** Writes back a session in use whose last write-back is `touchInterval` old. */
  const touch = (state: RequestState<A>, value: string, record: SessionRecord, now: number) => {
    const touched: SessionRecord = { ...record, touchedAt: now };
    return store.update(value, touched, lifetime.expiresAt(touched)).pipe(
      Effect.map((updated) => {
        if (Option.isNone(updated)) {
          state.end();
          return state.data;
        }
        state.cookieValue = updated.value;
        state.record = touched;
        state.write = lifetime.set(updated.value, touched, now);
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
    state.end();
    return Effect.as(flush(state), state.data);
  };

  /** `record`'s data at `now`: `None` once expired, or when it does not match the Schema. */
  const liveData = (record: SessionRecord, now: number): Option.Option<A> =>
    now >= lifetime.expiresAt(record) ? Option.none() : decodeRecord(record);

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
          state.keep(value, record, data);
          return now - record.touchedAt >= touchMillis
            ? Effect.tap(touch(state, value, record, now), () => flush(state))
            : Effect.succeed(data);
        },
      }),
    );
  };

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
    state.keep(value, record, data);
    return data;
  };

  return { load, readNow };
};
