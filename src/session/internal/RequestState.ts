/**
 * One request's session, as loaded and as changed, and the cookie write its response gets. A
 * request keeps it on itself, under a symbol of its session service's own.
 *
 * @since 0.1.0
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Option from "effect/Option";
import type { CookieWrite, SessionCookie } from "../SessionCookie.js";
import type { SessionRecord } from "../SessionStore.js";
import type { PendingCookie } from "./CookieSink.js";

/** The write that clears the session cookie. */
export const clearCookie: CookieWrite = { _tag: "Clear" };

/** One request's session, as loaded and as changed; the cookie write its response gets. */
export class RequestState<A> implements PendingCookie {
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

  /** The request's session is `record`, under `value`, holding `data`. */
  keep(value: string, record: SessionRecord, data: Option.Option<A>): void {
    this.cookieValue = value;
    this.record = record;
    this.data = data;
  }

  /** No session: forgotten for this request, its cookie cleared. */
  end(): void {
    this.cookieValue = undefined;
    this.record = undefined;
    this.data = Option.none();
    this.write = clearCookie;
  }

  apply(response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse {
    return this.write === undefined
      ? response
      : this.cookie.apply(response, this.write, this.secure);
  }

  header(): string | undefined {
    return this.write === undefined ? undefined : this.cookie.header(this.write, this.secure);
  }
}

/**
 * The state of each request for one session service: made on first use and kept on the
 * request (a WeakMap keyed by requests costs about a microsecond a request in V8, ephemerons).
 */
export const requestStates = <A>(
  isSecure: (request: HttpServerRequest.HttpServerRequest) => boolean,
  cookie: SessionCookie,
): ((request: HttpServerRequest.HttpServerRequest) => RequestState<A>) => {
  const stateKey = Symbol("effect-strata/session/RequestState");
  return (request) => {
    const holder = request as unknown as { [stateKey]?: RequestState<A> };
    let state = holder[stateKey];
    if (state === undefined) {
      state = new RequestState<A>(isSecure(request), cookie);
      holder[stateKey] = state;
    }
    return state;
  };
};
