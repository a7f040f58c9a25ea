import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { StartupError } from "../di/StartupError.js";
import { EffectMiddleware } from "./EffectMiddleware.js";
import * as RateLimit from "./RateLimit.js";

/**
 * Rate limiting, the classic way:
 * `app.use(new RateLimitMiddleware({ windowMs: 60_000, max: 100 }))`, with
 * `store: RedisRateLimitStore.layer({ host, port })` to share the limit between instances.
 * See {@link RateLimit.make}.
 *
 * @since 0.1.0
 * @category middleware
 */
export class RateLimitMiddleware extends EffectMiddleware {
  constructor(readonly options: RateLimit.RateLimitOptions = {}) {
    super();
  }

  build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return RateLimit.make(this.options);
  }
}
