import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import * as FiberId from "effect/FiberId";
import { writeNodeResponse } from "./NodeResponseWriter.js";
import { NodeServerRequest } from "./NodeServerRequest.js";

/**
 * A deadline on producing the response of a request served by Strata's node server, kept on
 * the request's own fiber: if `millis` pass first, the fiber is interrupted (finalizers run,
 * the request scope closes) and, once it has ended, `answer()` is written unless a response
 * was already on its way. Returns the function that lifts the deadline (it is also lifted when
 * the fiber ends), or `undefined` for a request of another server (the caller then forks).
 */
export const requestDeadline = (
  fiber: Fiber.RuntimeFiber<unknown, unknown>,
  request: HttpServerRequest.HttpServerRequest,
  millis: number,
  answer: () => HttpServerResponse.HttpServerResponse,
): (() => void) | undefined => {
  if (!(request instanceof NodeServerRequest)) return undefined;
  const res = request.response;
  const timer = setTimeout(() => {
    if (fiber.unsafePoll() !== null) return;
    fiber.addObserver(() => {
      if (res.headersSent || res.writableEnded) return;
      const writing = writeNodeResponse(res, request.method, answer());
      if (writing !== Effect.void) Effect.runFork(writing);
    });
    fiber.unsafeInterruptAsFork(FiberId.none);
  }, millis);
  const lift = () => clearTimeout(timer);
  fiber.addObserver(lift);
  return lift;
};
