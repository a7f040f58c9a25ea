/**
 * Where a request's session cookie is written. On the Effect face (and in classic guards and
 * parameter decorators, which run on the request's fiber) a pre-response handler writes it on
 * the response, once, whatever the request did last; the classic `SessionService`, whose
 * Promise methods run off that fiber, writes it on the request's `StrataResponse` instead.
 */
import * as HttpApp from "@effect/platform/HttpApp";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";

/** What one request will do to its session cookie, as the session service last decided. */
export interface PendingCookie {
  /** `true` once a pre-response handler will write it. */
  hooked: boolean;
  /** `response` with the cookie written (unchanged when there is nothing to write). */
  readonly apply: (
    response: HttpServerResponse.HttpServerResponse,
  ) => HttpServerResponse.HttpServerResponse;
  /** The `Set-Cookie` header value to send, if any. */
  readonly header: () => string | undefined;
}

/** Writes a pending cookie somewhere that reaches the response. */
export type CookieSinkService = (pending: PendingCookie) => Effect.Effect<void>;

/** The default: one pre-response handler per request, added on the request's fiber. */
const preResponse: CookieSinkService = (pending) => {
  if (pending.hooked) return Effect.void;
  pending.hooked = true;
  return HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(pending.apply(response)),
  );
};

/** The cookie sink of the running code: the request's response, unless provided otherwise. */
export class CookieSink extends Context.Reference<CookieSink>()(
  "effect-strata/session/CookieSink",
  {
    defaultValue: () => preResponse,
  },
) {}
