import type * as Effect from "effect/Effect";
import type { Type } from "../di/Token.js";
import type { RequestContext } from "../http/RequestContext.js";

/**
 * Which handler argument a pipe is transforming: where it comes from (`type`), its name
 * (`data`: `"id"` for `@Param("id")`, undefined for a whole object) and its declared type
 * (`metatype`: the DTO or Schema given to `@Body`, `@Query` or `@Param`, if any).
 *
 * @since 0.1.0
 * @category pipes
 */
export interface ArgumentMetadata {
  readonly type: "body" | "query" | "param" | "file" | "files";
  readonly data?: string;
  readonly metatype?: unknown;
}

/**
 * Transforms or validates a handler argument before the handler runs. May return a value,
 * a Promise or an Effect; throwing (or failing with) an `HttpError` answers with that error.
 *
 * @since 0.1.0
 * @category pipes
 */
export abstract class PipeTransform<In = unknown, Out = unknown> {
  abstract transform(
    value: In,
    context: RequestContext,
    metadata: ArgumentMetadata,
  ): Out | Promise<Out> | Effect.Effect<Out, unknown>;
}

/** A pipe given to a decorator: an instance, or a class the app instantiates (through DI). @since 0.1.0 @category pipes */
export type PipeLike = PipeTransform | Type<PipeTransform>;
