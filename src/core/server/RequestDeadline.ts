import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import * as FiberId from "effect/FiberId";
import { writeNodeResponse } from "./NodeResponseWriter.js";
import { NodeServerRequest } from "./NodeServerRequest.js";

/**
 * A deadline on producing the response of a request served by Strata's node server, kept on
 * the request's own fiber: its timer starts once the fiber has had to wait (a handler that
 * answers at once needs none: measured, a timer a request made V8 move request objects to its
 * old generation), and when it fires the fiber is interrupted. Whoever runs the request's code
 * then `answer`s at the right moment (after the interrupted code's finalizers, before the
 * request scope closes) and `lift`s the deadline once the response is produced or the code
 * has ended.
 */
export class RequestDeadline {
  /** Whether the deadline passed (the fiber was interrupted for it). */
  passed = false;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;
  private lifted = false;

  private constructor(
    private readonly fiber: Fiber.RuntimeFiber<unknown, unknown>,
    private readonly request: NodeServerRequest,
    private readonly millis: number,
  ) {}

  /** A deadline for `request`, or `undefined` when another server serves it (fork instead). */
  static start(
    fiber: Fiber.RuntimeFiber<unknown, unknown>,
    request: HttpServerRequest.HttpServerRequest,
    millis: number,
  ): RequestDeadline | undefined {
    if (!(request instanceof NodeServerRequest)) return undefined;
    const deadline = new RequestDeadline(fiber, request, millis);
    const origin = request.origin;
    origin.deadline = deadline;
    if (origin.waited) deadline.arm();
    return deadline;
  }

  /** Starts the timer (the server calls it once the request's fiber has had to wait). */
  arm(): void {
    if (this.timer !== undefined || this.lifted) return;
    this.timer = setTimeout(() => {
      this.passed = true;
      this.fiber.unsafeInterruptAsFork(FiberId.none);
    }, this.millis);
  }

  /** Ends the deadline: its timer, if started, is stopped. */
  lift(): void {
    this.lifted = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.request.origin.deadline = undefined;
  }

  /** Writes `response` now, unless a response is already on its way. */
  answer(response: HttpServerResponse.HttpServerResponse): void {
    const res = this.request.response;
    if (res.headersSent || res.writableEnded) return;
    const writing = writeNodeResponse(res, this.request.method, response);
    if (writing !== Effect.void) Effect.runFork(writing);
  }
}
