import type { DtoSchema } from "../pipeline/Validation.js";
import type { PipeLike } from "../pipes/PipeTransform.js";
import { appendMetadata, MetadataKey } from "./metadata.js";

/** Where a handler argument comes from. */
export type ParamSource = "body" | "param" | "query" | "headers" | "req" | "res" | "file" | "files";

/** A handler parameter recorded by a parameter decorator. */
export interface ParamMetadata {
  readonly index: number;
  readonly source: ParamSource;
  readonly name?: string;
  readonly pipes: ReadonlyArray<PipeLike>;
  /** The declared DTO or Schema of the argument (validated when it is a Schema). */
  readonly dtoType?: unknown;
}

/** Records a handler parameter; the building block of every parameter decorator. */
export const param =
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

const isPipe = (u: unknown): u is PipeLike =>
  (typeof u === "object" &&
    u !== null &&
    typeof (u as { transform?: unknown }).transform === "function") ||
  (typeof u === "function" &&
    typeof (u.prototype as { transform?: unknown } | undefined)?.transform === "function");

/** Splits decorator arguments into pipes and the (single) Schema among them. */
const pipesAndSchema = (
  decorator: string,
  args: ReadonlyArray<PipeLike | DtoSchema | undefined>,
): { readonly pipes: ReadonlyArray<PipeLike>; readonly schema?: DtoSchema } => {
  const pipes: Array<PipeLike> = [];
  let schema: DtoSchema | undefined;
  for (const arg of args) {
    if (arg === undefined) continue;
    if (isPipe(arg)) pipes.push(arg);
    else if (schema === undefined) schema = arg;
    else throw new Error(`@${decorator}() takes at most one Schema`);
  }
  return { pipes, schema };
};

/**
 * The request body (decoded by its `Content-Type`), optionally through pipes. With a DTO
 * (a `Schema.Class` or any Schema) the body is validated against it and the decoded value
 * passed (400 `Validation failed` with one line per field otherwise); the DTO is also the
 * request's `dtoType`. On an upload route the body is the multipart form's text fields.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Body = (
  dto?: DtoSchema | PipeLike | Function,
  ...pipes: ReadonlyArray<PipeLike>
): ParameterDecorator =>
  isPipe(dto) ? param("body", undefined, [dto, ...pipes]) : param("body", undefined, pipes, dto);

/**
 * A path parameter by name (or all of them, without a name), optionally through pipes. A
 * Schema among the arguments validates it (`@Param("id", Schema.NumberFromString)`, or
 * `@Param(Schema.Struct({ id: Schema.NumberFromString }))` for all of them).
 *
 * @since 0.1.0
 * @category decorators
 */
export const Param = (
  name?: string | DtoSchema,
  ...pipes: ReadonlyArray<PipeLike | DtoSchema>
): ParameterDecorator => named("param", "Param", name, pipes);

/**
 * One query parameter by name (or all of them as an object, without a name), optionally
 * through pipes; a Schema among the arguments validates it, as for {@link Param}.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Query = (
  name?: string | DtoSchema,
  ...pipes: ReadonlyArray<PipeLike | DtoSchema>
): ParameterDecorator => named("query", "Query", name, pipes);

const named = (
  source: "param" | "query",
  decorator: string,
  name: string | DtoSchema | undefined,
  args: ReadonlyArray<PipeLike | DtoSchema>,
): ParameterDecorator => {
  const key = typeof name === "string" ? name : undefined;
  const { pipes, schema } = pipesAndSchema(
    decorator,
    typeof name === "string" ? args : [name, ...args],
  );
  return param(source, key, pipes, schema);
};
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
