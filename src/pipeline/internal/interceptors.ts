import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import * as Runtime from "effect/Runtime";
import type * as Scope from "effect/Scope";
import { childRuntime } from "../../core/server/RequestFibers.js";
import type { ExecutionContext } from "../ExecutionContext.js";
import type { CallHandler, Interceptor } from "../Interceptor.js";

/**
 * Settles what the inner pipeline produced as a Promise for an interceptor's `next()`. A plain
 * value or a Promise (adopted) needs no fiber; an Effect runs on a fiber forked from the request's
 * (same services and fiber refs) and tied to the request's scope, so it is interrupted with it.
 */
const settle = (
  result: unknown,
  parent: Fiber.RuntimeFiber<unknown, unknown>,
  scope: Scope.Scope,
): Promise<unknown> => {
  if (!Effect.isEffect(result)) return Promise.resolve(result);
  const runtime = childRuntime(parent);
  return new Promise((resolve, reject) => {
    const fiber = Runtime.runFork(runtime)(result as Effect.Effect<unknown, unknown>, { scope });
    fiber.addObserver((exit) => {
      if (exit._tag === "Success") resolve(exit.value);
      else reject(Cause.squash(exit.cause));
    });
  });
};

/**
 * Runs `interceptors` around `inner` (which yields the handler's result: a value, a Promise or
 * an Effect), the first outermost. Returns what the outermost interceptor returned: a value,
 * a Promise or an Effect. Each `next()` runs the rest once.
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
    const next: CallHandler = () => settle(at(index + 1), parent, scope);
    try {
      return interceptors[index].intercept(context, next);
    } catch (error) {
      return Effect.fail(error);
    }
  };
  return at(0);
};
