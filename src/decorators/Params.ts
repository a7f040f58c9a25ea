import type { PipeLike } from "../pipes/PipeTransform.js";
import { appendMetadata, MetadataKey } from "./metadata.js";

/** Where a handler argument comes from. */
export type ParamSource = "body" | "param" | "query" | "headers" | "req" | "res";

/** A handler parameter recorded by a parameter decorator. */
export interface ParamMetadata {
  readonly index: number;
  readonly source: ParamSource;
  readonly name?: string;
  readonly pipes: ReadonlyArray<PipeLike>;
  readonly dtoType?: unknown;
}

const param =
  (
    source: ParamSource,
    name?: string,
    pipes: ReadonlyArray<PipeLike> = [],
    dtoType?: unknown,
  ): ParameterDecorator =>
  (target, handler, index) => {
    if (handler === undefined) {
      throw new Error(
        `@${source}() decorates handler parameters, not constructor parameters: use @Inject() there`,
      );
    }
    const metadata: ParamMetadata = { index, source, name, pipes, dtoType };
    appendMetadata(MetadataKey.params, metadata, target, handler);
  };

/**
 * The request body (decoded by its `Content-Type`). With a DTO type, the type is recorded as
 * the request's `dtoType` for validation pipes.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Body = (dtoType?: unknown): ParameterDecorator =>
  param("body", undefined, [], dtoType);

/** A path parameter by name, optionally through a pipe. @since 0.1.0 @category decorators */
export const Param = (name: string, pipe?: PipeLike): ParameterDecorator =>
  param("param", name, pipe === undefined ? [] : [pipe]);

/** One query parameter by name, or all of them as an object; optionally through a pipe. @since 0.1.0 @category decorators */
export const Query = (name?: string, pipe?: PipeLike): ParameterDecorator =>
  param("query", name, pipe === undefined ? [] : [pipe]);

/** One request header by name (case-insensitive), or all of them. @since 0.1.0 @category decorators */
export const Headers = (name?: string): ParameterDecorator => param("headers", name?.toLowerCase());

/** The {@link RequestContext} of the request (`method`, `url`, `headers`, `params`, `query`, `body`, `user`, `req`). @since 0.1.0 @category decorators */
export const Req = (): ParameterDecorator => param("req");

/**
 * The {@link StrataResponse} to write by hand: the handler's return value is then ignored and
 * the response is whatever the handler sends through it.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Res = (): ParameterDecorator => param("res");
