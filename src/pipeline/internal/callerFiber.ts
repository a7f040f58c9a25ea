/**
 * Where the classic services (`AccountsService`, `OAuthService`) run the Effects behind their
 * Promise methods: on a child of the fiber that called them, when a fiber did. A classic
 * handler, guard, interceptor or callback handler runs on its request's fiber, so a call it
 * makes before its first `await` sees the request's span, log annotations and fiber refs, and
 * the request's interruption (its timeout, the client gone, a shutdown) interrupts the work.
 * Called from no fiber (after an `await`, or outside any request), the Effect runs on a fiber of
 * its own, as `Effect.runPromiseExit` does. Nothing is done for a request that calls no service.
 */
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as Runtime from "effect/Runtime";
import { childRuntime } from "../../server/internal/FastPath.js";

/** The fiber whose run loop is calling, if any. */
const callerFiber = (): Fiber.RuntimeFiber<unknown, unknown> | undefined => {
  const current = Fiber.getCurrentFiber();
  return current._tag === "Some" ? current.value : undefined;
};

/**
 * The exit of `effect`, run on a child of the calling fiber (its context and fiber refs),
 * interrupted when that fiber is; from no fiber, on a fiber of its own.
 */
export const runPromiseExitOnCaller = <A, E>(
  effect: Effect.Effect<A, E>,
): Promise<Exit.Exit<A, E>> => {
  const parent = callerFiber();
  if (parent === undefined) return Effect.runPromiseExit(effect);
  return new Promise((resolve) => {
    const child = Runtime.runFork(childRuntime(parent))(effect);
    // Interrupted with its caller (a timeout, the client gone); a caller that ends otherwise
    // without waiting for it leaves it running, as a Promise it did not await would.
    const onCallerExit = (exit: Exit.Exit<unknown, unknown>) => {
      if (Exit.isInterrupted(exit)) child.unsafeInterruptAsFork(parent.id());
    };
    parent.addObserver(onCallerExit);
    child.addObserver((exit) => {
      parent.removeObserver(onCallerExit);
      resolve(exit);
    });
  });
};

/** The exit of `effect`, run at once on the calling fiber's context and fiber refs (if any). */
export const runSyncExitOnCaller = <A, E>(effect: Effect.Effect<A, E>): Exit.Exit<A, E> => {
  const parent = callerFiber();
  return parent === undefined
    ? Effect.runSyncExit(effect)
    : Runtime.runSyncExit(childRuntime(parent))(effect);
};
