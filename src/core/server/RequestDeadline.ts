import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import * as FiberId from "effect/FiberId";
import { writeNodeResponse } from "./NodeResponseWriter.js";
import { NodeServerRequest } from "./NodeServerRequest.js";

/**
 * A deadline on producing the response of a request served by Strata's node server, kept on
 * the request's own fiber: once `millis` have passed, the fiber is interrupted. Whoever runs
 * the request's code then `answer`s at the right moment (after the interrupted code's
 * finalizers, before the request scope closes) and `lift`s the deadline once the response is
 * produced or the code has ended.
 */
export class RequestDeadline {
  /** Whether the deadline passed (the fiber was interrupted for it). */
  passed = false;
  private readonly timer: ReturnType<typeof setTimeout>;

  private constructor(
    fiber: Fiber.RuntimeFiber<unknown, unknown>,
    private readonly request: NodeServerRequest,
    millis: number,
  ) {
    this.timer = setTimeout(() => {
      this.passed = true;
      fiber.unsafeInterruptAsFork(FiberId.none);
    }, millis);
  }

  /** A deadline for `request`, or `undefined` when another server serves it (fork instead). */
  static start(
    fiber: Fiber.RuntimeFiber<unknown, unknown>,
    request: HttpServerRequest.HttpServerRequest,
    millis: number,
  ): RequestDeadline | undefined {
    return request instanceof NodeServerRequest
      ? new RequestDeadline(fiber, request, millis)
      : undefined;
  }

  /** Stops the timer. */
  lift(): void {
    clearTimeout(this.timer);
  }

  /** Writes `response` now, unless a response is already on its way. */
  answer(response: HttpServerResponse.HttpServerResponse): void {
    const res = this.request.response;
    if (res.headersSent || res.writableEnded) return;
    const writing = writeNodeResponse(res, this.request.method, response);
    if (writing !== Effect.void) Effect.runFork(writing);
  }
}
