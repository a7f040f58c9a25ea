import type { ExecutionContext } from "./ExecutionContext.js";
import type { CallHandler, RxObservable } from "./Interceptor.js";

/**
 * NestJS's interceptor interface (`class Logging implements NestInterceptor`): `intercept`
 * returns an rxjs Observable, usually `next.handle().pipe(...)`. Any class of this shape is an
 * {@link Interceptor} to `@UseInterceptors` and the app; Strata also accepts a value, a Promise
 * or an Effect from `intercept`.
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface NestInterceptor<T = unknown, R = unknown> {
  /** Wraps the handler: `next.handle()` runs it, as an rxjs Observable of its result. */
  intercept(
    context: ExecutionContext,
    next: CallHandler<T>,
  ): RxObservable<R> | Promise<RxObservable<R>>;
}
