import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { StartupError } from "../di/StartupError.js";
import { EffectMiddleware } from "./EffectMiddleware.js";
import * as Timeout from "./Timeout.js";

/**
 * Request timeout, the classic way: `app.use(new TimeoutMiddleware({ timeout: 5_000 }))`.
 * See {@link Timeout.make}.
 *
 * @since 0.1.0
 * @category middleware
 */
export class TimeoutMiddleware extends EffectMiddleware {
  constructor(readonly options: Timeout.TimeoutOptions = {}) {
    super();
  }

  build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return Timeout.make(this.options);
  }
}
