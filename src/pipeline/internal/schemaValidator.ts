/** Schemas recognised, and compiled once into synchronous validators answering 400 in the standard shape. */
import * as Either from "effect/Either";
import * as ParseResult from "effect/ParseResult";
import * as Schema from "effect/Schema";
import type { ParseOptions } from "effect/SchemaAST";
import { validationError } from "../../http/ErrorResponse.js";
import type { BadRequestError } from "../../http/HttpError.js";

/** `true` for an Effect Schema (including `Schema.Class` DTOs). */
export const isSchema = (u: unknown): u is Schema.Schema.AnyNoContext => Schema.isSchema(u);

/**
 * Compiles a Schema into a synchronous validator, once: every failing field is reported,
 * not only the first.
 */
export const validator = <A, I>(
  schema: Schema.Schema<A, I, never>,
  options: Pick<ParseOptions, "onExcessProperty"> = {},
): ((input: unknown) => Either.Either<A, BadRequestError>) => {
  // The issue itself, not a `ParseError` made from it: an Error would capture a stack (~4 us).
  const decode = ParseResult.decodeUnknownEither(schema, {
    errors: "all",
    onExcessProperty: options.onExcessProperty ?? "ignore",
  });
  return (input) => Either.mapLeft(decode(input), validationError);
};
