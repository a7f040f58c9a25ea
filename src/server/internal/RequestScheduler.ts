import * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import * as FiberRef from "effect/FiberRef";
import * as FiberRefs from "effect/FiberRefs";
import * as Runtime from "effect/Runtime";
import * as Scheduler from "effect/Scheduler";

/** Microtask drains in a row before the runner lets the event loop turn (as Effect's default). */
const MAX_MICROTASK_DRAINS = 2048;

/** When a fiber whose refs are still its first ones yields, and at which priority. */
export interface YieldPolicy {
  /** Its `FiberRef.currentMaxOpsBeforeYield`. */
  readonly maxOps: number;
  /** Its `FiberRef.currentSchedulingPriority`. */
  readonly priority: number;
}

/** A fiber as Effect 3 makes it: its refs in a field that each change of a ref replaces. */
interface FiberWithRefs {
  readonly _fiberRefs?: unknown;
}

/** Held by no fiber: the refs of "no request fiber running its first steps". */
const noRefs = {};

// The refs of the request fiber running its first steps, and their yield policy.
let startingRefs: unknown = noRefs;
let startingPolicy: YieldPolicy = { maxOps: 0, priority: 0 };

/**
 * `start(refs, id, effect)`, which makes a request fiber with `refs` and starts it: while it runs
 * its first steps, in this call, its yield checks read `policy` (its refs', known when the server
 * starts) as long as its refs are still `refs`. Nothing is kept once it returns. Only called once
 * a startup check has seen that Effect's fibers keep their refs as {@link FiberWithRefs} says.
 */
export const startWithPolicy = <I, E, A>(
  policy: YieldPolicy,
  start: (refs: FiberRefs.FiberRefs, id: I, effect: E) => A,
  refs: FiberRefs.FiberRefs,
  id: I,
  effect: E,
): A => {
  startingRefs = refs;
  startingPolicy = policy;
  try {
    return start(refs, id, effect);
  } finally {
    startingRefs = noRefs;
  }
};

/** The {@link YieldPolicy} of fibers that start with `refs`. */
export const yieldPolicyOf = (refs: FiberRefs.FiberRefs): YieldPolicy => ({
  maxOps: FiberRefs.getOrDefault(refs, FiberRef.currentMaxOpsBeforeYield),
  priority: FiberRefs.getOrDefault(refs, FiberRef.currentSchedulingPriority),
});

const isFiberRefs = (u: unknown): u is FiberRefs.FiberRefs =>
  typeof u === "object" && u !== null && FiberRefs.FiberRefsSym in u;

/**
 * Whether fibers made by `make` keep their refs as {@link FiberWithRefs} says: the very refs they
 * were made with, replaced by another object when a ref is set. Checked once, at startup, by
 * making and running one fiber; otherwise request fibers get Effect's own yield check.
 */
export const keepsRefsInField = (
  make: (refs: FiberRefs.FiberRefs, effect: Effect.Effect<void>) => Fiber.RuntimeFiber<void>,
): boolean => {
  try {
    const refs = Runtime.defaultRuntime.fiberRefs;
    const seen: Array<unknown> = [];
    const see = Effect.withFiberRuntime((fiber) => {
      seen.push((fiber as FiberWithRefs)._fiberRefs);
      return Effect.void;
    });
    const fiber = make(
      refs,
      Effect.zipRight(see, Effect.locally(see, FiberRef.currentMaxOpsBeforeYield, 4096)),
    );
    const [first, afterSet] = seen;
    return (
      fiber.unsafePoll() !== null &&
      first === refs &&
      isFiberRefs(afterSet) &&
      afterSet !== refs &&
      FiberRefs.getOrDefault(afterSet, FiberRef.currentMaxOpsBeforeYield) === 4096
    );
  } catch {
    return false;
  }
};

/**
 * Effect's yield check, `Scheduler.defaultShouldYield`, without its two fiber-ref lookups at every
 * step while a request fiber runs its first steps (see {@link startWithPolicy}) with the refs it
 * was made with. A fiber whose refs changed (`Effect.withMaxOpsBeforeYield`, any other ref set),
 * a fiber resumed later, or any other fiber gets Effect's check.
 * Measured: ~100 instructions a run-loop step, ~0.7k a request on the bench's Effect route.
 */
const shouldYield = (fiber: Fiber.RuntimeFiber<unknown, unknown>): number | false =>
  (fiber as FiberWithRefs)._fiberRefs === startingRefs
    ? fiber.currentOpCount > startingPolicy.maxOps
      ? startingPolicy.priority
      : false
    : Scheduler.defaultShouldYield(fiber);

/**
 * The scheduler of request fibers: Effect's default scheduling (microtasks, a timer every
 * 2 048 drains in a row so that I/O is not starved, the default yield policy), on one runner
 * for every fiber. Effect's default scheduler (3.20 and later) keeps a runner a fiber in a
 * `WeakMap` keyed by the fiber; under load that table's entries keep each request's fiber and
 * everything it holds alive through V8's young-generation collections until the next full one.
 * Measured (a route that yields once, 50 connections, pinned): 275 KB survived each scavenge
 * and 24,869 req/s, against 14 KB and 25,145-29,243 req/s with one runner.
 */
export const requestScheduler: Scheduler.Scheduler = (() => {
  const runner = new Scheduler.SchedulerRunner((depth, drain) => {
    if (depth >= MAX_MICROTASK_DRAINS) setTimeout(() => drain(0), 0);
    else Promise.resolve(undefined).then(() => drain(depth + 1));
  });
  return {
    scheduleTask: (task, priority) => runner.scheduleTask(task, priority),
    shouldYield,
  };
})();
