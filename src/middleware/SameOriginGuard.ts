import { StartupError } from "../di/StartupError.js";
import type { CanActivate } from "../pipeline/CanActivate.js";
import type { ExecutionContext } from "../pipeline/ExecutionContext.js";
import { parseOrigins, SAFE_METHODS } from "./internal/sameOriginRules.js";
import * as SameOrigin from "./SameOrigin.js";

/**
 * The check as a classic guard: `@UseGuards(SameOriginGuard)` on a controller or a route (or
 * `new SameOriginGuard({ origins })`, or a global guard). A cross-site request with an unsafe
 * method is refused with 403 `Forbidden`; `GET`, `HEAD` and `OPTIONS` pass, so a controller's
 * pages stay reachable from links. An origin in `origins` that is not one throws a
 * `StartupError` when the guard is made.
 *
 * @example
 * @Controller("accounts")
 * @UseGuards(SessionGuard, SameOriginGuard)
 * class AccountsController {
 *   @Post(":provider/unlink") unlink() {}
 * }
 *
 * @since 0.1.0
 * @category middleware
 */
export class SameOriginGuard implements CanActivate {
  private readonly trusted: SameOrigin.TrustedOrigins;

  constructor(options: SameOrigin.SameOriginOptions = {}) {
    const parsed = parseOrigins(options.origins ?? []);
    if (typeof parsed === "string") throw new StartupError({ message: parsed });
    this.trusted = parsed;
  }

  canActivate(context: ExecutionContext): boolean {
    return (
      SAFE_METHODS.has(context.method) || !SameOrigin.isCrossSite(context.headers, this.trusted)
    );
  }
}
