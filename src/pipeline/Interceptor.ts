import type { Type } from "../di/Token.js";
import type { ExecutionContext } from "./ExecutionContext.js";

/**
 * Runs the rest of the pipeline (inner interceptors, pipes and the handler) and resolves with
 * the handler's result, or rejects with its failure.
 *
 * @since 0.1.0
 * @category pipeline
 */
export type CallHandler = () => Promise<unknown>;

/**
 * Wraps a handler: runs code before and after it, maps or replaces its result, times it, or
 * answers without calling `next` at all. `intercept` may return a value, a Promise or an
 * Effect; that value is what the route answers (through the usual response rules).
 * Interceptors nest global, then controller, then method; the first listed is the outermost.
 *
 * @example
 * class Envelope extends Interceptor {
 *   async intercept(_context: ExecutionContext, next: CallHandler) {
 *     return { data: await next() };
 *   }
 * }
 *
 * @since 0.1.0
 * @category pipeline
 */
export abstract class Interceptor {
  abstract intercept(context: ExecutionContext, next: CallHandler): unknown;
}

/** An interceptor given to `@UseInterceptors` or the app: an instance, or a class the app creates. @since 0.1.0 @category pipeline */
export type InterceptorLike = Interceptor | Type<Interceptor>;
