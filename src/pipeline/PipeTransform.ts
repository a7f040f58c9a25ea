import type * as Effect from "effect/Effect";
import type { Type } from "../di/Token.js";
import type { RequestContext } from "../http/RequestContext.js";

/**
 * Which handler argument a pipe is transforming, as NestJS describes it: where it comes from
 * (`type`: `"body"`, `"query"`, `"param"`, `"custom"` for a decorator made with
 * `createParamDecorator` (and `@Headers`, `@Req`), `"file"`/`"files"` for uploads), its name
 * (`data`: `"id"` for `@Param("id")`, `"name"` for `@Body("name")`, the argument of a custom
 * decorator, undefined for a whole object) and its declared type (`metatype`: the DTO or Schema
 * given to `@Body`, `@Query` or `@Param`, else the parameter's TypeScript type as
 * `design:paramtypes` records it: a class, or `String`, `Number`, `Boolean`, `Object`...).
 *
 * @since 0.1.0
 * @category pipes
 */
export interface ArgumentMetadata {
  readonly type: "body" | "query" | "param" | "custom" | "file" | "files";
  readonly data?: string;
  readonly metatype?: unknown;
}

/**
 * A pipe's second argument: the request (the {@link RequestContext} `@Req()` injects) carrying
 * the {@link ArgumentMetadata} of the argument being transformed. A pipe written the NestJS way,
 * `transform(value, metadata)`, reads `metadata.type`, `.data` and `.metatype` from it; one
 * written the Strata way, `transform(value, context)`, reads the request.
 *
 * @since 0.1.0
 * @category pipes
 */
export interface PipeContext extends RequestContext, ArgumentMetadata {}

/**
 * Transforms or validates a handler argument before the handler runs. May return a value,
 * a Promise or an Effect; throwing (or failing with) an `HttpError` answers with that error.
 * Both NestJS's `transform(value, metadata)` and Strata's `transform(value, context,
 * metadata)` implement it (see {@link PipeContext}).
 *
 * @since 0.1.0
 * @category pipes
 */
export abstract class PipeTransform<In = unknown, Out = unknown> {
  /**
   * Transforms or validates one handler argument: the value it returns is what the handler
   * receives; a thrown or failed `HttpError` answers as itself.
   */
  abstract transform(
    value: In,
    context: PipeContext,
    metadata: ArgumentMetadata,
  ): Out | Promise<Out> | Effect.Effect<Out, unknown>;
}

/** A pipe given to a decorator: an instance, or a class the app instantiates (through DI). @since 0.1.0 @category pipes */
export type PipeLike = PipeTransform | Type<PipeTransform>;
