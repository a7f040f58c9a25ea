import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { StartupError } from "../di/StartupError.js";
import { EffectMiddleware } from "./EffectMiddleware.js";
import * as SameOrigin from "./SameOrigin.js";

/**
 * The check as classic middleware: `app.use(new SameOriginMiddleware())`. See {@link SameOrigin.make}.
 *
 * @since 0.1.0
 * @category middleware
 */
export class SameOriginMiddleware extends EffectMiddleware {
  constructor(readonly options: SameOrigin.SameOriginOptions = {}) {
    super();
  }

  build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return SameOrigin.make(this.options);
  }
}
