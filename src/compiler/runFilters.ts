import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import { fromUserCode } from "../http/UserCode.js";
import type { BoundFilter } from "../pipeline/internal/enhancers.js";
import type { HttpExecution } from "../pipeline/internal/execution.js";

const matches = (bound: BoundFilter, exception: unknown): boolean =>
  bound.catches === undefined || bound.catches.some((type) => exception instanceof type);

/**
 * Hands a route's failure to the first filter that catches it (filters are ordered method,
 * controller, global). The response is whatever the filter sent; when it sends nothing, or
 * no filter matches, or the request was interrupted, the failure goes on unchanged.
 */
export const applyFilters = (
  filters: ReadonlyArray<BoundFilter>,
  execution: HttpExecution,
  cause: Cause.Cause<unknown>,
): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> => {
  if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause);
  const failure = Cause.failureOption(cause);
  const exception = failure._tag === "Some" ? failure.value : Cause.squash(cause);
  const bound = filters.find((candidate) => matches(candidate, exception));
  if (bound === undefined) return Effect.failCause(cause);
  const response = execution.responseForFilter();
  return Effect.flatMap(
    fromUserCode(() => bound.filter.catch(exception, execution)),
    () => (response.sent ? response.response : Effect.failCause(cause)),
  );
};
