import { appendMetadata, MetadataKey } from "../di/metadata.js";
import type { Type } from "../di/Token.js";
import { clientAddress } from "../middleware/TrustProxy.js";
import type { ExecutionContext } from "../pipeline/ExecutionContext.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import type { DtoSchema } from "../pipeline/Validation.js";
import { controllerHostMatcher, requestHostname } from "./ControllerHost.js";

/** Where a handler argument comes from (`custom`: a decorator made with `createParamDecorator`). */
export type ParamSource =
  | "body"
  | "param"
  | "query"
  | "headers"
  | "req"
  | "res"
  | "file"
  | "files"
  | "custom";

/** A handler parameter recorded by a parameter decorator. */
export interface ParamMetadata {
  readonly index: number;
  readonly source: ParamSource;
  /** The key read (`@Body("name")`, `@Param("id")`, a header or a file field), if any. */
  readonly name?: string;
  readonly pipes: ReadonlyArray<PipeLike>;
  /** The DTO or Schema given to the decorator (it wins over the parameter's TypeScript type). */
  readonly dtoType?: unknown;
  /** `custom` only: computes the argument from the decorator's `data` and the request. */
  readonly factory?: (data: unknown, context: ExecutionContext) => unknown;
  /** `custom` only: the argument given to the decorator. */
  readonly data?: unknown;
}

/** Records a parameter's metadata; refuses constructor parameters (`label` names the decorator). */
export const recordParam =
  (label: string, metadata: Omit<ParamMetadata, "index">): ParameterDecorator =>
  (target, handler, index) => {
    if (handler === undefined) {
      throw new Error(
        `${label} decorates handler parameters, not constructor parameters: use @Inject() there`,
      );
    }
    appendMetadata(MetadataKey.params, { ...metadata, index }, target, handler);
  };

/** Records a handler parameter; the building block of every parameter decorator. */
export const param = (
  source: ParamSource,
  name?: string,
  pipes: ReadonlyArray<PipeLike> = [],
  dtoType?: unknown,
): ParameterDecorator => recordParam(`@${source}()`, { source, name, pipes, dtoType });

/** `true` for a pipe instance or a pipe class (one with a `transform` method), as NestJS tells them. */
export const isPipe = (u: unknown): u is PipeLike =>
  (typeof u === "object" &&
    u !== null &&
    typeof (u as { transform?: unknown }).transform === "function") ||
  (typeof u === "function" &&
    typeof (u.prototype as { transform?: unknown } | undefined)?.transform === "function");

/** What `@Body`, `@Query` and `@Param` take besides a key: pipes, and one DTO (a Schema or a class). */
export type ParamArgument = PipeLike | DtoSchema | Type<unknown>;

/** Splits decorator arguments into pipes and the (single) DTO among them. */
const pipesAndDto = (
  decorator: string,
  args: ReadonlyArray<ParamArgument | undefined>,
): { readonly pipes: ReadonlyArray<PipeLike>; readonly dto?: unknown } => {
  const pipes: Array<PipeLike> = [];
  let dto: unknown;
  for (const arg of args) {
    if (arg === undefined) continue;
    if (isPipe(arg)) pipes.push(arg);
    else if (typeof arg !== "function") {
      throw new Error(
        `@${decorator}() takes a key first, then pipes and at most one Schema or DTO class: got ${JSON.stringify(arg) ?? String(arg)}`,
      );
    } else if (dto === undefined) dto = arg;
    else throw new Error(`@${decorator}() takes at most one Schema or DTO class`);
  }
  return { pipes, dto };
};

/** `@Body`, `@Query`, `@Param`: a key (a string first), then pipes and at most one DTO. */
const keyed = (
  source: "body" | "param" | "query",
  decorator: string,
  first: string | ParamArgument | undefined,
  args: ReadonlyArray<ParamArgument>,
): ParameterDecorator => {
  const key = typeof first === "string" ? first : undefined;
  const { pipes, dto } = pipesAndDto(
    decorator,
    typeof first === "string" ? args : [first, ...args],
  );
  return param(source, key, pipes, dto);
};

/**
 * The request body (decoded by its `Content-Type`), or one property of it with a key
 * (`@Body("name")`, as in NestJS: `undefined` when the body has no such own property),
 * optionally through pipes. With a DTO (a `Schema.Class` or any Schema, given here or as the
 * parameter's type: `@Body() dto: CreateUserDto`) the body is validated against it and the
 * decoded value passed (400 `Validation failed` with one line per field otherwise); a
 * class-validator DTO is validated by a `ValidationPipe`. On an upload route the body is the
 * multipart form's text fields.
 *
 * @example
 * class CreateCatDto extends Schema.Class<CreateCatDto>("CreateCatDto")({ name: Schema.String }) {}
 *
 * @Controller("cats")
 * class CatsController {
 *   @Post()
 *   create(@Body() dto: CreateCatDto, @Body("name") name: string) {
 *     return { dto, name };
 *   }
 * }
 *
 * @since 0.1.0
 * @category decorators
 */
export const Body = (
  key?: string | ParamArgument,
  ...pipes: ReadonlyArray<ParamArgument>
): ParameterDecorator => keyed("body", "Body", key, pipes);

/**
 * A path parameter by name (or all of them, without a name), optionally through pipes. A
 * Schema among the arguments validates it (`@Param("id", Schema.NumberFromString)`, or
 * `@Param(Schema.Struct({ id: Schema.NumberFromString }))` for all of them).
 *
 * @since 0.1.0
 * @category decorators
 */
export const Param = (
  name?: string | ParamArgument,
  ...pipes: ReadonlyArray<ParamArgument>
): ParameterDecorator => keyed("param", "Param", name, pipes);

/**
 * One query parameter by name (or all of them as an object, without a name), optionally
 * through pipes; a Schema among the arguments validates it, as for {@link Param}.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Query = (
  name?: string | ParamArgument,
  ...pipes: ReadonlyArray<ParamArgument>
): ParameterDecorator => keyed("query", "Query", name, pipes);

/** One request header by name (case-insensitive), or all of them. @since 0.1.0 @category decorators */
export const Headers = (name?: string): ParameterDecorator => param("headers", name?.toLowerCase());

/** The {@link RequestContext} of the request (`method`, `url`, `headers`, `params`, `query`, `body`, `user`, `req`). @since 0.1.0 @category decorators */
export const Req = (): ParameterDecorator => param("req");

/** NestJS's `@Request()`: the same as {@link Req}. @since 0.1.0 @category decorators */
export const Request = Req;

/**
 * The {@link StrataResponse} to write by hand: the handler's return value is then ignored and
 * the response is whatever the handler sends through it.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Res = (): ParameterDecorator => param("res");

/**
 * NestJS's `@Ip()`: the client's address, the socket's peer (`X-Forwarded-For` is not believed:
 * behind a proxy, read it with `TrustProxy.clientAddress(req, trustProxy)` from `@Req()`).
 * `"unknown"` when there is none (a Unix socket).
 *
 * @since 0.1.0
 * @category decorators
 */
export const Ip = (): ParameterDecorator =>
  recordParam("@Ip()", {
    source: "custom",
    pipes: [],
    factory: (_data, context) => {
      const request = context.switchToHttp().getRequest().req;
      return request === undefined ? "unknown" : clientAddress(request);
    },
  });

/**
 * NestJS's `@HostParam(name?)`: a parameter of the controller's `host` pattern
 * (`@Controller({ host: ":tenant.example.com" })` and `@HostParam("tenant")`), or all of them
 * without a name; `undefined` on a controller without `host`.
 *
 * @since 0.1.0
 * @category decorators
 */
export const HostParam = (name?: string): ParameterDecorator =>
  recordParam("@HostParam()", {
    source: "custom",
    pipes: [],
    data: name,
    factory: (data, context) => {
      const matcher = controllerHostMatcher(context.getClass());
      const params = matcher?.(requestHostname(context.headers)) ?? {};
      return data === undefined ? params : params[data as string];
    },
  });
