import type { IncomingMessage, ServerResponse } from "node:http";
import type * as Exit from "effect/Exit";
import type * as Fiber from "effect/Fiber";

/** A fiber running (or closing the scope of) one request. */
export type RequestFiber = Fiber.RuntimeFiber<unknown, unknown>;

/** node's `request` listener. */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The requests of one server: those still running on a fiber (those answered synchronously
 * never count), and what the drain needs to know about connections, kept cheap on the hot path.
 */
export interface InFlight {
  /** Sees every request before it runs: notes pipelined ones; while draining, refuses keep-alive. */
  readonly arrive: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Follows a fiber of a request that did not complete synchronously: its own, or the one
   * closing its scope after it was interrupted. The drain waits for both: `onExit` runs when
   * the fiber ends, before the fiber stops counting, so work it starts and tracks is waited for.
   */
  readonly track: (
    res: ServerResponse,
    fiber: RequestFiber,
    onExit?: (exit: Exit.Exit<unknown, unknown>) => void,
  ) => void;
}
