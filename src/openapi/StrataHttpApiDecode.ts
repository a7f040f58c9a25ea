import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import * as HttpApiSchema from "@effect/platform/HttpApiSchema";
import * as HttpRouter from "@effect/platform/HttpRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { normalizeUrlParams } from "./NormalizeUrlParams.js";
import { requestPayload } from "./StrataHttpApiPayload.js";

/** One decoding step of a request: the member of the handler's request it fills, and how. */
export interface DecodeStep {
  readonly key: string;
  readonly decode: (
    httpRequest: HttpServerRequest.HttpServerRequest,
    context: Context.Context<never>,
  ) => Effect.Effect<unknown, unknown, unknown>;
}

/**
 * The decoding steps of an endpoint's request, in the stock builder's order (path, payload,
 * headers, url params), each with its Schema compiled once.
 */
export const decodeSteps = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
): Array<DecodeStep> => {
  const steps: Array<DecodeStep> = [];
  if (endpoint.pathSchema._tag === "Some") {
    const decode = Schema.decodeUnknown(endpoint.pathSchema.value);
    steps.push({
      key: "path",
      decode: (_, context) => decode(Context.unsafeGet(context, HttpRouter.RouteContext).params),
    });
  }
  const payload = endpoint.payloadSchema;
  if (payload._tag === "Some") {
    const decode = Schema.decodeUnknown(payload.value);
    const limits = HttpApiSchema.getMultipart(payload.value.ast);
    steps.push({
      key: "payload",
      decode: (httpRequest, context) =>
        Effect.flatMap(
          requestPayload(
            httpRequest,
            Context.unsafeGet(context, HttpServerRequest.ParsedSearchParams),
            limits,
          ),
          decode,
        ),
    });
  }
  if (endpoint.headersSchema._tag === "Some") {
    const decode = Schema.decodeUnknown(endpoint.headersSchema.value);
    steps.push({ key: "headers", decode: (httpRequest) => decode(httpRequest.headers) });
  }
  if (endpoint.urlParamsSchema._tag === "Some") {
    const schema = endpoint.urlParamsSchema.value;
    const decode = Schema.decodeUnknown(schema);
    steps.push({
      key: "urlParams",
      decode: (_, context) =>
        decode(
          normalizeUrlParams(
            Context.unsafeGet(context, HttpServerRequest.ParsedSearchParams),
            schema.ast,
          ),
        ),
    });
  }
  return steps;
};
