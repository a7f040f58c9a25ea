/**
 * Validation with Effect Schema, for both faces: `ValidationPipe` and `@Body(Dto)` use it in
 * classic routes, {@link body}, {@link query} and {@link params} in Effect routes. A failure is
 * a 400 `Validation failed` listing one line per offending field (`path: message`).
 *
 * @since 0.1.0
 */
import * as HttpRouter from "@effect/platform/HttpRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import type { BadRequestError, PayloadTooLargeError } from "../http/HttpError.js";
import { DEFAULT_BODY_LIMIT, readBody } from "../http/RequestBody.js";
import { validator } from "./internal/schemaValidator.js";

/**
 * What validates a DTO: a `Schema.Class` or any Schema needing no services. The decoded
 * value (a class instance for a `Schema.Class`) is what the handler receives.
 *
 * @since 0.1.0
 * @category validation
 */
export type DtoSchema = Schema.Schema.AnyNoContext;

/**
 * How input is decoded. `onExcessProperty`: `"ignore"` (default) drops properties the Schema
 * does not declare, `"error"` rejects them, `"preserve"` keeps them.
 *
 * @since 0.1.0
 * @category validation
 */
export interface ValidationOptions {
  readonly onExcessProperty?: "ignore" | "error" | "preserve";
}

/**
 * Validates a value against `schema` as an Effect.
 *
 * @since 0.1.0
 * @category validation
 */
export const decode = <A, I>(
  schema: Schema.Schema<A, I, never>,
  options?: ValidationOptions,
): ((input: unknown) => Effect.Effect<A, BadRequestError>) => validator(schema, options);

/**
 * Reads the request body (JSON, form or text; at most `limit` bytes, 1 MB by default; JSON
 * nested at most `depthLimit` levels, 1000 by default) and validates it against `schema`.
 *
 * @example
 * const CreateUserDto = Schema.Struct({ name: Schema.String, email: Schema.String });
 *
 * const createUser = HttpLayerRouter.add(
 *   "POST",
 *   "/users",
 *   Effect.gen(function* () {
 *     const user = yield* Validation.body(CreateUserDto); // 400 with one line per field
 *     return jsonResponse(user, { status: 201 });
 *   }),
 * );
 *
 * @since 0.1.0
 * @category validation
 */
export const body = <A, I>(
  schema: Schema.Schema<A, I, never>,
  options: ValidationOptions & {
    /** Largest body in bytes (default 1 MB): 413 past it. */
    readonly limit?: number;
    /** Deepest JSON nesting (default: what `JsonDepth.withJsonDepthLimit` sets, 1000): 400 past it. */
    readonly depthLimit?: number;
  } = {},
): Effect.Effect<
  A,
  BadRequestError | PayloadTooLargeError,
  HttpServerRequest.HttpServerRequest
> => {
  const validate = validator(schema, options);
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.flatMap(
      readBody(request, options.limit ?? DEFAULT_BODY_LIMIT, options.depthLimit),
      validate,
    ),
  );
};

/**
 * Validates the query parameters (a record of strings, arrays for repeated keys), read from the
 * fiber's context directly: two Effect steps in all, against four through the tag.
 *
 * @since 0.1.0
 * @category validation
 */
export const query = <A, I>(
  schema: Schema.Schema<A, I, never>,
  options?: ValidationOptions,
): Effect.Effect<A, BadRequestError, HttpServerRequest.ParsedSearchParams> => {
  const validate = validator(schema, options);
  return Effect.withFiberRuntime((fiber) =>
    validate(Context.unsafeGet(fiber.currentContext, HttpServerRequest.ParsedSearchParams)),
  );
};

/**
 * Validates the path parameters of the matched route, read from the fiber's context directly:
 * two Effect steps in all, against six through `HttpRouter.params`.
 *
 * @since 0.1.0
 * @category validation
 */
export const params = <A, I>(
  schema: Schema.Schema<A, I, never>,
  options?: ValidationOptions,
): Effect.Effect<A, BadRequestError, HttpRouter.RouteContext> => {
  const validate = validator(schema, options);
  return Effect.withFiberRuntime((fiber) =>
    validate(Context.unsafeGet(fiber.currentContext, HttpRouter.RouteContext).params),
  );
};
