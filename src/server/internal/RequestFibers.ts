import type * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type * as Fiber from "effect/Fiber";
import * as FiberId from "effect/FiberId";
import * as FiberRef from "effect/FiberRef";
import * as FiberRefs from "effect/FiberRefs";
import { identity } from "effect/Function";
import * as Runtime from "effect/Runtime";
import * as RuntimeFlags from "effect/RuntimeFlags";
import * as Scheduler from "effect/Scheduler";
import * as Supervisor from "effect/Supervisor";
import { entriesOf, mapOf } from "./MapCopies.js";
import {
  keepsRefsInField,
  requestScheduler,
  startWithPolicy,
  yieldPolicyOf,
} from "./RequestScheduler.js";

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
 * records in its refs whenever they are read), on Strata's request scheduler unless the app
 * chose a scheduler of its own.
 */
const requestFiberRefs = (runtime: Runtime.Runtime<never>): FiberRefs.FiberRefs => {
  const refs = FiberRefs.delete(
    FiberRefs.delete(runtime.fiberRefs, FiberRef.currentContext),
    FiberRef.currentRuntimeFlags,
  );
  // Effect's default scheduler gives way to Strata's (see `requestScheduler`); an app's own stays.
  return FiberRefs.getOrDefault(refs, FiberRef.currentScheduler) === Scheduler.defaultScheduler
    ? FiberRefs.updateAs(refs, {
        fiberId: FiberId.none,
        fiberRef: FiberRef.currentScheduler,
        value: requestScheduler,
      })
    : refs;
};

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

/** Effect's fiber class, as its constructor and `start` are (effect does not export it). */
export type FiberRuntimeClass = new (
  fiberId: FiberId.Runtime,
  fiberRefs: FiberRefs.FiberRefs,
  runtimeFlags: RuntimeFlags.RuntimeFlags,
) => Fiber.RuntimeFiber<void> & { readonly start: (effect: Effect.Effect<void>) => void };

/**
 * Effect's fiber class, read from a fiber at startup and checked by starting one with it, or
 * `undefined` (with one debug log) should a version of Effect make or start fibers otherwise:
 * request fibers then start through the public `Runtime.runFork`.
 */
export const requestFiberClass: Effect.Effect<FiberRuntimeClass | undefined> = Effect.suspend(
  () => {
    try {
      const FiberRuntime = Effect.runFork(Effect.void).constructor as FiberRuntimeClass;
      let ran = false;
      const fiber = new FiberRuntime(
        FiberId.unsafeMake(),
        Runtime.defaultRuntime.fiberRefs,
        Runtime.defaultRuntimeFlags,
      );
      fiber.start(
        Effect.sync(() => {
          ran = true;
        }),
      );
      const exit = fiber.unsafePoll();
      if (ran && exit !== null && Exit.isSuccess(exit)) return Effect.succeed(FiberRuntime);
    } catch {
      // Not the class, or not its constructor: the public path below.
    }
    return Effect.as(
      Effect.logDebug(
        "Strata: Effect's fiber class has an unexpected shape; request fibers start through Runtime.runFork",
      ),
      undefined,
    );
  },
);

/**
 * Starts request fibers from the app runtime's fiber refs ({@link requestFiberRefs}). Effect's
 * fork runs every ref's fork for every fiber and compares the result; a fork that keeps the
 * value shares the ref's history. Which refs those are is found here once (among those whose
 * fork is known to be pure, see {@link pureFork}), and they are shared without that work
 * (measured: ~25 ns a ref a fiber; an app under `NodeRuntime.runMain` has its logger there).
 * The other refs are still forked for every fiber.
 *
 * The fiber is made and started as Effect's `Runtime.runFork` does, except that it is not added
 * to Effect's global set of root fibers (`Fiber.roots`), one `Set` shared by every root fiber of
 * the process: once that set's table has been promoted to V8's old space (whether it has depends
 * on when the app's first scavenges ran), every add and delete that resizes it allocates the new
 * table there, ~120 bytes of old-space garbage a request. Measured under load (50 connections,
 * pinned): old space growing ~9 MB/s, a major GC every ~2 s, RSS after load 110 MB (peak 139)
 * against 103 MB (peak 106) without, and 2.5–4% fewer requests a second. With a supervisor
 * other than `Supervisor.none`, which must see every fiber start, or without Effect's fiber
 * class (see {@link requestFiberClass}), fibers start through `Runtime.runFork`.
 */
export const makeRequestFork = (
  runtime: Runtime.Runtime<never>,
  runtimeFlags: RuntimeFlags.RuntimeFlags,
  FiberRuntime: FiberRuntimeClass | undefined,
): RequestFork => {
  const refs = requestFiberRefs(runtime);
  if (
    FiberRuntime === undefined ||
    FiberRefs.getOrDefault(refs, FiberRef.currentSupervisor) !== Supervisor.none
  )
    return (context, effect) =>
      Runtime.runFork(Runtime.make({ context, fiberRefs: refs, runtimeFlags }), effect);
  const startFiber = (
    fiberRefs: FiberRefs.FiberRefs,
    fiberId: FiberId.Runtime,
    effect: Effect.Effect<void>,
  ) => {
    const fiber = new FiberRuntime(fiberId, fiberRefs, runtimeFlags);
    fiber.start(effect);
    return fiber;
  };
  // On Strata's scheduler, a fiber's first steps check whether to yield without reading its refs.
  const policy =
    FiberRefs.getOrDefault(refs, FiberRef.currentScheduler) === requestScheduler &&
    keepsRefsInField((fiberRefs, effect) => startFiber(fiberRefs, FiberId.unsafeMake(), effect))
      ? yieldPolicyOf(refs)
      : undefined;
  const start =
    policy === undefined
      ? startFiber
      : (fiberRefs: FiberRefs.FiberRefs, fiberId: FiberId.Runtime, effect: Effect.Effect<void>) =>
          startWithPolicy(policy, startFiber, fiberRefs, fiberId, effect);
  const probe = FiberRefs.forkAs(refs, FiberId.unsafeMake()).locals;
  const shared: FiberRefs.FiberRefs["locals"] = new Map();
  const forked: FiberRefs.FiberRefs["locals"] = new Map();
  for (const [ref, history] of refs.locals) {
    (probe.get(ref) === history && pureFork(ref) ? shared : forked).set(ref, history);
  }
  if (shared.size === 0) {
    // Nothing to spare: Effect's own fork of every ref.
    return (context, effect) => {
      const fiberId = FiberId.unsafeMake();
      const fiberRefs = FiberRefs.updateManyAs(refs, {
        forkAs: fiberId,
        entries: [[FiberRef.currentContext, [[fiberId, context]]]],
      });
      return start(fiberRefs, fiberId, effect);
    };
  }
  const sharedEntries = entriesOf(shared);
  const perFiber = forked.size === 0 ? undefined : FiberRefs.unsafeMake(forked);
  const forkRequest: RequestFork = (context, effect) => {
    const fiberId = FiberId.unsafeMake();
    const locals = mapOf(sharedEntries);
    if (perFiber !== undefined)
      for (const [ref, history] of FiberRefs.forkAs(perFiber, fiberId).locals)
        locals.set(ref, history);
    locals.set(FiberRef.currentContext, [[fiberId, context]]);
    return start(FiberRefs.unsafeMake(locals), fiberId, effect);
  };
  return forkRequest;
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
