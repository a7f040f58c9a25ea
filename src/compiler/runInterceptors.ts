import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import type * as Exit from "effect/Exit";
import type * as Fiber from "effect/Fiber";
import * as Runtime from "effect/Runtime";
import type * as Scope from "effect/Scope";
import { loadRxjs } from "../http/loadRxjs.js";
import { isObservable } from "../http/ObservableResult.js";
import { awaitResult, isThenable } from "../http/UserCode.js";
import type { ExecutionContext } from "../pipeline/ExecutionContext.js";
import type { CallHandler, Interceptor, RxObservable } from "../pipeline/Interceptor.js";
import { childRuntime } from "../server/internal/FastPath.js";

/**
 * Runs an Effect on a fiber forked from the request's (same services and fiber refs) and tied
 * to the request's scope, so it is interrupted with it; `onExit` is told how it ended.
 */
const fork = (
  effect: Effect.Effect<unknown, unknown>,
  parent: Fiber.RuntimeFiber<unknown, unknown>,
  scope: Scope.Scope,
  onExit: (exit: Exit.Exit<unknown, unknown>) => void,
): Fiber.RuntimeFiber<unknown, unknown> => {
  const fiber = Runtime.runFork(childRuntime(parent))(effect, { scope });
  fiber.addObserver(onExit);
  return fiber;
};

/**
 * Settles what the inner pipeline produced as a Promise for an interceptor's `next()`. A plain
 * value or a Promise (adopted) needs no fiber; an Effect (or an Observable's last value) runs on
 * a forked fiber (see {@link fork}). An Observable a Promise or an Effect gives is settled too.
 */
const settle = (
  result: unknown,
  parent: Fiber.RuntimeFiber<unknown, unknown>,
  scope: Scope.Scope,
): Promise<unknown> => {
  if (isThenable(result)) {
    return Promise.resolve(result).then((value) =>
      isObservable(value) ? settle(value, parent, scope) : value,
    );
  }
  if (!Effect.isEffect(result) && !isObservable(result)) return Promise.resolve(result);
  return new Promise((resolve, reject) => {
    fork(awaitResult(result), parent, scope, (exit) => {
      if (exit._tag === "Success") resolve(exit.value);
      else reject(Cause.squash(exit.cause));
    });
  });
};

/**
 * What an interceptor's `next.handle()` returns: a cold rxjs Observable that runs the rest of
 * the pipeline when subscribed and emits what it produced: each value of an Observable, else the
 * one settled value (each value of an Observable it settles to), then completes; a failure is
 * its error. Unsubscribing before the end
 * (rxjs's `timeout`) interrupts an Effect still running.
 */
const observe = (
  run: () => unknown,
  parent: Fiber.RuntimeFiber<unknown, unknown>,
  scope: Scope.Scope,
): RxObservable<unknown> => {
  const { Observable } = loadRxjs();
  return new Observable<unknown>((subscriber) => {
    let result: unknown;
    try {
      result = run();
    } catch (error) {
      subscriber.error(error);
      return;
    }
    if (isObservable(result)) return result.subscribe(subscriber);
    let inner: { unsubscribe(): void } | undefined;
    const emit = (value: unknown) => {
      if (isObservable(value)) {
        inner = value.subscribe(subscriber);
        return;
      }
      subscriber.next(value);
      subscriber.complete();
    };
    if (Effect.isEffect(result)) {
      let done = false;
      const fiber = fork(result as Effect.Effect<unknown, unknown>, parent, scope, (exit) => {
        done = true;
        if (exit._tag === "Success") emit(exit.value);
        else subscriber.error(Cause.squash(exit.cause));
      });
      return () => {
        if (!done) fiber.unsafeInterruptAsFork(fiber.id());
        inner?.unsubscribe();
      };
    }
    if (isThenable(result)) {
      result.then(emit, (error: unknown) => subscriber.error(error));
      return () => inner?.unsubscribe();
    }
    emit(result);
  });
};

/**
 * Runs `interceptors` around `inner` (which yields the handler's result: a value, a Promise or
 * an Effect), the first outermost. Returns what the outermost interceptor returned: a value,
 * a Promise, an Effect or an Observable. Each `next()` (or subscription to `next.handle()`)
 * runs the rest once.
 */
export const intercept = (
  interceptors: ReadonlyArray<Interceptor>,
  context: ExecutionContext,
  inner: () => unknown,
  parent: Fiber.RuntimeFiber<unknown, unknown>,
  scope: Scope.Scope,
): unknown => {
  const at = (index: number): unknown => {
    if (index === interceptors.length) return inner();
    const rest = () => at(index + 1);
    const next = (() => settle(rest(), parent, scope)) as CallHandler;
    next.handle = () => observe(rest, parent, scope);
    try {
      return interceptors[index].intercept(context, next);
    } catch (error) {
      return Effect.fail(error);
    }
  };
  return at(0);
};
