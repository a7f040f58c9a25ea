import * as Schema from "effect/Schema";

/**
 * The standard error body of every failure a classic route answers (Strata's error mapper):
 * `{ statusCode, message, errors? }`.
 *
 * @since 0.1.0
 * @category openapi
 */
export const ErrorBodySchema = Schema.Struct({
  statusCode: Schema.Int.annotations({ description: "The HTTP status" }),
  message: Schema.String,
  errors: Schema.optional(
    Schema.Array(Schema.String).annotations({ description: "One line per detail" }),
  ),
}).annotations({
  identifier: "ErrorBody",
  description: "The standard error body of a Strata app",
});

/**
 * The body of a 400 for input that its Schema or pipe refused: `Validation failed` and one
 * `path: message` line per offending field.
 *
 * @since 0.1.0
 * @category openapi
 */
export const ValidationErrorBodySchema = Schema.Struct({
  statusCode: Schema.Literal(400),
  message: Schema.String.annotations({ examples: ["Validation failed"] }),
  errors: Schema.optional(
    Schema.Array(Schema.String).annotations({
      description: "One `path: message` line per offending field",
      examples: [['title: Expected a non empty string, actual ""']],
    }),
  ),
}).annotations({
  identifier: "ValidationErrorBody",
  description: "A request its Schema or a pipe refused (or a malformed body)",
});
