import type * as Effect from "effect/Effect";
import type { Type } from "../di/Token.js";
import type { ExecutionContext } from "./ExecutionContext.js";
import type { RxObservable } from "./Interceptor.js";

/**
 * A guard: decides whether a request reaches its handler. `true` lets it through, `false`
 * answers 403 `Forbidden` (a Promise, an Effect or, as in NestJS, an rxjs Observable of the
 * answer is awaited); throwing (or failing with) an `HttpError` answers with that error.
 * A guard may set `context.user` for the handler. Guard classes are created once at startup
 * through dependency injection (request-scoped ones once per request).
 *
 * @example
 * declare class ApiKeys { // a provider of the app
 *   find(key: string | undefined): RequestUser | undefined;
 * }
 *
 * @Injectable()
 * class ApiKeyGuard implements CanActivate {
 *   constructor(private readonly keys: ApiKeys) {}
 *   canActivate(context: ExecutionContext) {
 *     const user = this.keys.find(context.headers["x-api-key"]);
 *     if (user !== undefined) context.user = user;
 *     return user !== undefined;
 *   }
 * }
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface CanActivate {
  /**
   * `true` lets the request through, `false` answers 403; a thrown or failed `HttpError` answers as
   * itself.
   */
  canActivate(
    context: ExecutionContext,
  ): boolean | Promise<boolean> | Effect.Effect<boolean, unknown> | RxObservable<boolean>;
}

/** A guard given to `@UseGuards` or the app: an instance, or a class the app creates. @since 0.1.0 @category pipeline */
export type GuardLike = CanActivate | Type<CanActivate>;
