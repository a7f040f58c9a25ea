import type * as Fiber from "effect/Fiber";
import * as FiberRef from "effect/FiberRef";
import * as FiberRefs from "effect/FiberRefs";
import * as Runtime from "effect/Runtime";
import * as RuntimeFlags from "effect/RuntimeFlags";

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
 * records in its refs whenever they are read). Each ref left costs every fork a copy and a
 * comparison (measured: ~0.14 us a request for these two).
 */
export const requestFiberRefs = (runtime: Runtime.Runtime<never>): FiberRefs.FiberRefs =>
  FiberRefs.delete(
    FiberRefs.delete(runtime.fiberRefs, FiberRef.currentContext),
    FiberRef.currentRuntimeFlags,
  );

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
