import { writeMetadata } from "../di/metadata.js";
import { Get } from "./Route.js";

/** The metadata key `@Sse()` sets on a handler. */
export const SSE_METADATA = "strata:sse";

/**
 * One server-sent event, as NestJS's `MessageEvent`: `data` (an object is sent as JSON), and
 * optionally the event `type`, its `id` (numbered from 1 when missing), `retry` (ms) and a
 * `comment`. An `@Sse()` route's Observable may also emit bare values: each is `{ data }`.
 *
 * @since 0.1.0
 * @category sse
 */
export interface MessageEvent {
  readonly data?: string | object;
  readonly id?: string;
  readonly type?: string;
  readonly retry?: number;
  readonly comment?: string;
}

/**
 * NestJS's `@Sse(path)`: a `GET` route streaming `text/event-stream`, one event per value of the
 * rxjs Observable the handler returns (or resolves with), until it completes or the client
 * leaves (which unsubscribes). Interceptors see the Observable, so `map` applies per event.
 * An error ends the stream with an `error` event: an `HttpError`'s message, else
 * `Internal Server Error` (the error itself is logged, never sent).
 *
 * @example
 * import { interval, map, type Observable } from "rxjs";
 * import { Controller, type MessageEvent, Sse } from "effect-strata";
 *
 * @Controller("clock")
 * class ClockController {
 *   @Sse("events")
 *   events(): Observable<MessageEvent> {
 *     return interval(1000).pipe(map((n) => ({ data: { n } })));
 *   }
 * }
 *
 * @since 0.1.0
 * @category sse
 */
export const Sse =
  (path = ""): MethodDecorator =>
  (target, handler, descriptor) => {
    Get(path)(target, handler, descriptor);
    writeMetadata(SSE_METADATA, true, target, handler);
  };
