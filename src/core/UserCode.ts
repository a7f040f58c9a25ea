import * as Effect from "effect/Effect";
import { isObservable, lastValue } from "./ObservableResult.js";

/** `true` for a Promise or any other thenable. */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null &&
  (typeof value === "object" || typeof value === "function") &&
  typeof (value as PromiseLike<unknown>).then === "function";

/**
 * Lifts the result of classic code into an Effect: a thrown value or a rejected Promise is a
 * failure carrying that value, an Effect runs as is, an rxjs Observable gives its last value
 * (its error is the failure), anything else is the success value.
 */
export const fromResult = (result: unknown): Effect.Effect<unknown, unknown> => {
  if (Effect.isEffect(result)) return result as Effect.Effect<unknown, unknown>;
  if (isObservable(result)) return lastValue(result);
  if (isThenable(result)) {
    return Effect.async<unknown, unknown>((resume) => {
      result.then(
        (value) => resume(isObservable(value) ? lastValue(value) : Effect.succeed(value)),
        (error: unknown) => resume(Effect.fail(error)),
      );
    });
  }
  return Effect.succeed(result);
};

/** Runs classic code (which may throw, return a Promise or an Effect) as an Effect. */
export const fromUserCode = (run: () => unknown): Effect.Effect<unknown, unknown> =>
  Effect.suspend(() => {
    try {
      return fromResult(run());
    } catch (error) {
      return Effect.fail(error);
    }
  });
