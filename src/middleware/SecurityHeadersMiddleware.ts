import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { StartupError } from "../di/StartupError.js";
import { EffectMiddleware } from "./EffectMiddleware.js";
import * as SecurityHeaders from "./SecurityHeaders.js";

/**
 * Security headers, the classic way: `app.use(new SecurityHeadersMiddleware())`, or with
 * overrides such as `{ frameOptions: "SAMEORIGIN", hsts: false }`. See {@link SecurityHeaders.make}.
 *
 * @since 0.1.0
 * @category middleware
 */
export class SecurityHeadersMiddleware extends EffectMiddleware {
  constructor(readonly options: SecurityHeaders.SecurityHeadersOptions = {}) {
    super();
  }

  build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return SecurityHeaders.make(this.options);
  }
}
