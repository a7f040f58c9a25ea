import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import { handlerResponse, type ResponseSpec } from "../http/HandlerResponse.js";
import { StreamableFile } from "../http/StreamableFile.js";
import { awaitResult, fromResult } from "../http/UserCode.js";
import type { HttpExecution } from "../pipeline/internal/execution.js";
import { isAsync } from "./runPipes.js";
import { sseResponse } from "./SseResponse.js";

/** Turns a handler's result (or an Effect of it) into the route's response. */
export type Respond = (
  value: unknown,
  execution: HttpExecution,
) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>;

/**
 * How a route answers, built once: an SSE stream (`@Sse()`), the response the handler wrote
 * (`@Res()`), or the handler's value as `spec` says, with what it set on its response object.
 */
export const responder = (spec: ResponseSpec, sse: boolean, takesResponse: boolean): Respond => {
  const toResponse = (value: unknown, execution: HttpExecution) => {
    const response = handlerResponse(value, spec);
    const extra = execution.responseIfCreated;
    if (extra === undefined || extra.sent) return response;
    const headers = extra.getHeaders();
    const withHeaders =
      Object.keys(headers).length === 0
        ? response
        : HttpServerResponse.setHeaders(response, headers);
    return extra.statusSet
      ? HttpServerResponse.setStatus(withHeaders, extra.statusCode)
      : withHeaders;
  };

  /** The response of `value`; a file stream first opened (400 when it cannot be). */
  const answer = (value: unknown, execution: HttpExecution) =>
    value instanceof StreamableFile
      ? Effect.map(value.opened(), () => toResponse(value, execution))
      : Effect.succeed(toResponse(value, execution));

  return sse
    ? (value, execution) =>
        Effect.map(sseResponse(value, spec.headers), (response) => toResponse(response, execution))
    : takesResponse
      ? (value, execution) => Effect.zipRight(fromResult(value), execution.getResponse().response)
      : (value, execution) =>
          isAsync(value)
            ? Effect.flatMap(awaitResult(value), (result) => answer(result, execution))
            : answer(value, execution);
};
