import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as Effect from "effect/Effect";
import { StartupError } from "../di/StartupError.js";
import type { CorsOptions, CorsOptionsDelegate } from "./CorsOptions.js";
import { decisionOf, delegated, optionsProblem } from "./internal/corsDecision.js";
import * as Middleware from "./Middleware.js";

export type { CorsOptions, CorsOptionsDelegate, CorsRequest } from "./CorsOptions.js";

/**
 * CORS as an Effect `HttpMiddleware`. Origins are matched exactly: with a list, only a listed
 * origin is echoed in `Access-Control-Allow-Origin` (and `Vary: Origin` is always sent, so caches
 * keep the answers apart); one string origin is sent as it is to requests without an `Origin`
 * or from that origin; with `"*"`, `*` is sent and credentials are refused at startup.
 * Every `OPTIONS` request is answered here as a preflight, 204 (or `optionsSuccessStatus`),
 * without reaching the routes, as the `cors` package does; from an origin not allowed it gets
 * no CORS headers, which the browser treats as a refusal. Options that are not valid fail with a
 * `StartupError` saying why; a delegate's options are checked on the request that gives them
 * (each options object once), answering 500 when not valid.
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (
  options: CorsOptions | CorsOptionsDelegate = {},
): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError> =>
  Effect.suspend(() => {
    if (typeof options === "function") {
      return Effect.succeed(Middleware.decorating(delegated(options)));
    }
    const problem = optionsProblem(options);
    const decision = problem === undefined ? decisionOf(options) : problem;
    return typeof decision === "string"
      ? new StartupError({ message: `CORS: ${decision}` })
      : Effect.succeed(Middleware.decorating(decision));
  });
