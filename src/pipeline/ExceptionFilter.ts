import type * as Effect from "effect/Effect";
import type { Type } from "../di/Token.js";
import type { ArgumentsHost } from "./ExecutionContext.js";

/**
 * Answers a failure of a route in its own way: `catch` writes the response through
 * `host.switchToHttp().getResponse()`. Bind it with `@UseFilters` (method or controller) or
 * app-wide; restrict what it handles with `@Catch(...types)`. The most specific binding that
 * matches handles the failure: method, then controller, then global (in listed order within
 * one level). A filter that sends nothing leaves the failure to the standard error response;
 * one that throws answers with what it threw.
 *
 * Failures reach filters as what classic code threw or Effect code failed with; a defect (an
 * Effect `die`) arrives as its defect value; an interruption is never filtered.
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface ExceptionFilter<T = unknown> {
  /** Handles the failure `exception`: answers the request through `host.switchToHttp()`. */
  catch(exception: T, host: ArgumentsHost): void | Promise<void> | Effect.Effect<void, unknown>;
}

/** A filter given to `@UseFilters` or the app: an instance, or a class the app creates. @since 0.1.0 @category pipeline */
export type FilterLike = ExceptionFilter<never> | Type<ExceptionFilter<never>>;
