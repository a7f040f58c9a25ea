import type { Type } from "../di/Token.js";
import type { ExecutionContext } from "./ExecutionContext.js";

// biome-ignore-start lint/suspicious/noTsIgnore: kept in the .d.ts, where a missing optional rxjs must not fail
/**
 * An rxjs `Observable` of `T`. rxjs is an optional peer dependency: where it is not installed,
 * this type is `any` (and `handle()` says at run time that rxjs is needed).
 *
 * @since 0.1.0
 * @category pipeline
 * @ts-ignore rxjs is an optional peer dependency: without it this type is `any` */
export type RxObservable<T> = import("rxjs").Observable<T>;
// biome-ignore-end lint/suspicious/noTsIgnore: the type above

/**
 * Runs the rest of the pipeline (inner interceptors, pipes and the handler), once per call.
 *
 * - `next()` resolves with the handler's result, or rejects with its failure (Strata's form).
 * - `next.handle()` is NestJS's form: a cold rxjs Observable of the same result (needs rxjs,
 *   loaded on first call), which errors with the failure. Unsubscribing (rxjs's `timeout`)
 *   interrupts the rest of the pipeline where it is an Effect.
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface CallHandler<T = unknown> {
  (): Promise<T>;
  /** NestJS's form of `next()`: a cold rxjs Observable of the handler's result (needs rxjs). */
  handle(): RxObservable<T>;
}

/**
 * Wraps a handler: runs code before and after it, maps or replaces its result, times it, or
 * answers without calling `next` at all. `intercept` may return a value, a Promise, an Effect
 * or an rxjs Observable (its last value is the result, its error the failure, as in NestJS);
 * that value is what the route answers (through the usual response rules). Interceptors nest
 * global, then controller, then method; the first listed is the outermost.
 *
 * @example
 * import { map } from "rxjs";
 * import type { CallHandler, ExecutionContext, NestInterceptor } from "effect-strata";
 * import { Interceptor } from "effect-strata";
 *
 * class Envelope extends Interceptor {
 *   async intercept(_context: ExecutionContext, next: CallHandler) {
 *     return { data: await next() };
 *   }
 * }
 * // NestJS's form, with rxjs installed:
 * class NestEnvelope implements NestInterceptor {
 *   intercept(_context: ExecutionContext, next: CallHandler) {
 *     return next.handle().pipe(map((data) => ({ data })));
 *   }
 * }
 *
 * @since 0.1.0
 * @category pipeline
 */
export abstract class Interceptor {
  /**
   * Wraps the rest of the pipeline: `next()` runs it; what this returns is what the route answers.
   */
  abstract intercept(context: ExecutionContext, next: CallHandler): unknown;
}

/** An interceptor given to `@UseInterceptors` or the app: an instance, or a class the app creates. @since 0.1.0 @category pipeline */
export type InterceptorLike = Interceptor | Type<Interceptor>;
