import type * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import * as FiberId from "effect/FiberId";
import * as FiberRef from "effect/FiberRef";
import * as FiberRefs from "effect/FiberRefs";
import { identity } from "effect/Function";
import * as Runtime from "effect/Runtime";
import * as RuntimeFlags from "effect/RuntimeFlags";
import { entriesOf, mapOf } from "./MapCopies.js";

/**
 * The runtime flags of request fibers: the app runtime's, without Effect's built-in fiber
 * metrics (`effect_fiber_started`, `effect_fiber_lifetimes`, ...) unless `fiberMetrics` asks
 * for them. Those metrics update two counters when a fiber starts and a histogram and two
 * counters when it ends: measured, ~0.4 us of every request fiber.
 */
export const requestFlags = (
  flags: RuntimeFlags.RuntimeFlags,
  fiberMetrics: boolean,
): RuntimeFlags.RuntimeFlags =>
  fiberMetrics ? flags : RuntimeFlags.disable(flags, RuntimeFlags.RuntimeMetrics);

/**
 * The fiber refs request fibers start from: the app runtime's, without the two that every fork
 * sets anew (its context, and its flags, which the fiber keeps in a field of its own and
 * records in its refs whenever they are read).
 */
const requestFiberRefs = (runtime: Runtime.Runtime<never>): FiberRefs.FiberRefs =>
  FiberRefs.delete(
    FiberRefs.delete(runtime.fiberRefs, FiberRef.currentContext),
    FiberRef.currentRuntimeFlags,
  );

/** Starts a request fiber on `context`. */
export type RequestFork = (
  context: Context.Context<never>,
  effect: Effect.Effect<void>,
) => Fiber.RuntimeFiber<void>;

/**
 * Whether `ref`'s fork can be run once for every fiber: `FiberRef.make`'s default (`identity`),
 * or a patch (refs made on a differ: loggers, context, supervisor). A fork function of the app's
 * own may have effects of its own (count its calls, read a clock), so it still runs per fiber.
 */
const pureFork = (ref: FiberRef.FiberRef<unknown>): boolean => {
  // Not in FiberRef's public type: every FiberRef of Effect 3 has it (without it, no sharing).
  const fork = (ref as unknown as { readonly fork?: unknown }).fork;
  return fork !== undefined && (typeof fork !== "function" || fork === identity);
};

/**
 * Starts request fibers from the app runtime's fiber refs ({@link requestFiberRefs}). Effect's
 * fork runs every ref's fork for every fiber and compares the result; a fork that keeps the
 * value shares the ref's history. Which refs those are is found here once (among those whose
 * fork is known to be pure, see {@link pureFork}), and they are shared without that work
 * (measured: ~25 ns a ref a fiber; an app under `NodeRuntime.runMain` has its logger there).
 * The other refs are still forked for every fiber.
 */
export const makeRequestFork = (
  runtime: Runtime.Runtime<never>,
  runtimeFlags: RuntimeFlags.RuntimeFlags,
): RequestFork => {
  const refs = requestFiberRefs(runtime);
  const probe = FiberRefs.forkAs(refs, FiberId.unsafeMake()).locals;
  const shared: FiberRefs.FiberRefs["locals"] = new Map();
  const forked: FiberRefs.FiberRefs["locals"] = new Map();
  for (const [ref, history] of refs.locals) {
    (probe.get(ref) === history && pureFork(ref) ? shared : forked).set(ref, history);
  }
  if (shared.size === 0) {
    // Nothing to spare: Effect's own fork (with no refs at all, its quickest).
    return (context, effect) =>
      Runtime.runFork(Runtime.make({ context, fiberRefs: refs, runtimeFlags }), effect);
  }
  const sharedEntries = entriesOf(shared);
  const perFiber = forked.size === 0 ? undefined : FiberRefs.unsafeMake(forked);
  const options: Runtime.RunForkOptions = {
    // `fresh` holds what Effect sets for a fiber it starts: the fiber's context.
    updateRefs: (fresh, fiberId) => {
      const locals = mapOf(sharedEntries);
      if (perFiber !== undefined)
        for (const [ref, history] of FiberRefs.forkAs(perFiber, fiberId).locals)
          locals.set(ref, history);
      const context = fresh.locals.get(FiberRef.currentContext);
      if (context !== undefined) locals.set(FiberRef.currentContext, context);
      return FiberRefs.unsafeMake(locals);
    },
  };
  const none = FiberRefs.empty();
  return (context, effect) =>
    Runtime.runFork(Runtime.make({ context, fiberRefs: none, runtimeFlags }), effect, options);
};

const withMetrics = Runtime.defaultRuntimeFlags;
const withoutMetrics = RuntimeFlags.disable(withMetrics, RuntimeFlags.RuntimeMetrics);

/**
 * A runtime for a fiber of its own that runs code on behalf of the request fiber `parent`: the
 * request's context and fiber refs, and the default (interruptible) flags whatever region
 * `parent` is in, fiber metrics as on `parent`.
 */
export const childRuntime = (
  parent: Fiber.RuntimeFiber<unknown, unknown>,
): Runtime.Runtime<never> => {
  // Also records the parent's current flags in its refs.
  const fiberRefs = parent.getFiberRefs();
  return Runtime.make({
    context: parent.currentContext,
    fiberRefs,
    runtimeFlags: RuntimeFlags.runtimeMetrics(parent.getFiberRef(FiberRef.currentRuntimeFlags))
      ? withMetrics
      : withoutMetrics,
  });
};
