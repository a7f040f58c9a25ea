import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { StartupError } from "../di/StartupError.js";
import * as Csrf from "./Csrf.js";
import { EffectMiddleware } from "./EffectMiddleware.js";

/**
 * CSRF protection, the classic way:
 * `app.use(new CsrfMiddleware({ secret, identify: (request) => request.cookies.sid }))`.
 * See {@link Csrf.make}.
 *
 * @since 0.1.0
 * @category middleware
 */
export class CsrfMiddleware extends EffectMiddleware {
  constructor(readonly options: Csrf.CsrfOptions = {}) {
    super();
  }

  build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return Csrf.make(this.options);
  }
}
