import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { StartupError } from "../di/StartupError.js";
import * as Cors from "./Cors.js";
import { EffectMiddleware } from "./EffectMiddleware.js";

/**
 * CORS, the classic way: `app.use(new CorsMiddleware({ origin: ["https://a.example"], credentials: true }))`,
 * or with a {@link Cors.CorsOptionsDelegate}. See {@link Cors.make} for the rules.
 *
 * @since 0.1.0
 * @category middleware
 */
export class CorsMiddleware extends EffectMiddleware {
  constructor(readonly options: Cors.CorsOptions | Cors.CorsOptionsDelegate = {}) {
    super();
  }

  build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return Cors.make(this.options);
  }
}
