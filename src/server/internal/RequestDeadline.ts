import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import * as FiberId from "effect/FiberId";
import * as Scope from "effect/Scope";
import { writeNodeResponse } from "./NodeResponseWriter.js";
import { NodeServerRequest } from "./NodeServerRequest.js";

/**
 * A deadline on producing the response of a request served by Strata's node server, kept on
 * the request's own fiber. Its timer starts only once the fiber has had to wait: a handler
 * that answers at once needs none (measured: a timer a request made V8 move request objects to
 * its old generation). When it fires, `timeoutAnswer()` is queued as the first finalizer of the
 * request scope (it runs after the interrupted code's own finalizers, before request-scoped
 * providers are destroyed) and the fiber is interrupted. The code run on the fiber `lift`s the
 * deadline once the response is produced.
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
    private readonly timeoutAnswer: () => HttpServerResponse.HttpServerResponse,
  ) {}

  /** A deadline for `request`, or `undefined` when another server serves it (fork instead). */
  static start(
    fiber: Fiber.RuntimeFiber<unknown, unknown>,
    request: HttpServerRequest.HttpServerRequest,
    millis: number,
    timeoutAnswer: () => HttpServerResponse.HttpServerResponse,
  ): RequestDeadline | undefined {
    if (!(request instanceof NodeServerRequest)) return undefined;
    const deadline = new RequestDeadline(fiber, request, millis, timeoutAnswer);
    const origin = request.origin;
    origin.deadline = deadline;
    if (origin.waited) deadline.arm();
    return deadline;
  }

  /** Starts the timer (the server calls it once the request's fiber has had to wait). */
  arm(): void {
    if (this.timer !== undefined || this.lifted) return;
    this.timer = setTimeout(() => this.pass(), this.millis);
    // Interrupted otherwise (the client went away): nothing is kept until the timer fires.
    this.fiber.addObserver(() => this.lift());
  }

  /** Ends the deadline: its timer, if started, is stopped. */
  lift(): void {
    this.lifted = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.request.origin.deadline = undefined;
  }

  private pass(): void {
    if (this.lifted || this.fiber.unsafePoll() !== null) return;
    this.passed = true;
    const answer = Effect.sync(() => this.answer(this.timeoutAnswer()));
    const scope = Context.getOption(this.fiber.currentContext, Scope.Scope);
    if (scope._tag === "Some") Effect.runSync(Scope.addFinalizer(scope.value, answer));
    else this.fiber.addObserver(() => Effect.runSync(answer));
    this.fiber.unsafeInterruptAsFork(FiberId.none);
  }

  /** Writes `response` now, unless a response is already on its way. */
  private answer(response: HttpServerResponse.HttpServerResponse): void {
    const res = this.request.response;
    if (res.headersSent || res.writableEnded) return;
    const writing = writeNodeResponse(res, this.request.method, response);
    if (writing !== Effect.void) Effect.runFork(writing);
  }
}
