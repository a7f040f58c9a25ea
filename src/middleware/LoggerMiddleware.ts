import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { StartupError } from "../di/StartupError.js";
import { EffectMiddleware } from "./EffectMiddleware.js";
import * as RequestLogger from "./RequestLogger.js";

/**
 * Request logging, the classic way: `app.use(LoggerMiddleware)` or
 * `app.use(new LoggerMiddleware({ level: "Debug" }))`. See {@link RequestLogger.make}.
 *
 * @since 0.1.0
 * @category middleware
 */
export class LoggerMiddleware extends EffectMiddleware {
  constructor(readonly options: RequestLogger.LoggerOptions = {}) {
    super();
  }

  build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return RequestLogger.make(this.options);
  }
}
