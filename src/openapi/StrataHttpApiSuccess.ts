import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import * as HttpApiSchema from "@effect/platform/HttpApiSchema";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import type * as UrlParams from "@effect/platform/UrlParams";
import * as Effect from "effect/Effect";
import * as ParseResult from "effect/ParseResult";
import type * as Schema from "effect/Schema";
import { stringResponse } from "../http/TextResponse.js";

/** The single success Schema of an endpoint, or `undefined` when it declares several. */
export const singleSuccess = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
): Schema.Schema.Any | undefined => {
  const schemas = new Set<Schema.Schema.Any>();
  HttpApiSchema.deunionize(schemas, endpoint.successSchema);
  return schemas.size === 1 ? [...schemas][0] : undefined;
};

/** The response for an encoded success value, as the stock builder writes it. */
export const successResponder = (
  schema: Schema.Schema.Any,
): ((encoded: unknown) => Effect.Effect<unknown, unknown, unknown>) => {
  const ast = schema.ast;
  const status = HttpApiSchema.getStatusSuccessAST(ast);
  if (HttpApiSchema.isVoid(ast)) {
    const empty = HttpServerResponse.empty({ status });
    return () => Effect.succeed(empty);
  }
  const encoding = HttpApiSchema.getEncoding(ast);
  const options = { status, contentType: encoding.contentType };
  switch (encoding.kind) {
    case "Json":
      // Written at once (`json`'s `Effect.try` is a step of its own); a value JSON cannot hold
      // is the same 400 `HttpApiDecodeError`.
      return (data) => {
        try {
          // The body stays a string until the socket write (no `TextEncoder` pass).
          const body = JSON.stringify(data);
          return Effect.succeed(
            body === undefined
              ? HttpServerResponse.unsafeJson(data, options)
              : stringResponse(body, encoding.contentType, status),
          );
        } catch (error) {
          return Effect.fail(
            new ParseResult.ParseError({
              issue: new ParseResult.Type(ast, error, "Could not encode to JSON"),
            }),
          );
        }
      };
    case "Text":
      return (data) => Effect.succeed(HttpServerResponse.text(data as string, options));
    case "Uint8Array":
      return (data) => Effect.succeed(HttpServerResponse.uint8Array(data as Uint8Array, options));
    case "UrlParams":
      return (data) =>
        Effect.succeed(HttpServerResponse.urlParams(data as UrlParams.Input, options));
  }
};
