import * as Effect from "effect/Effect";
import { isObservable, lastValue } from "./ObservableResult.js";

/** `true` for a Promise or any other thenable. */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null &&
  (typeof value === "object" || typeof value === "function") &&
  typeof (value as PromiseLike<unknown>).then === "function";

/**
 * Lifts the result of classic code into an Effect: a thrown value or a rejected Promise is a
 * failure carrying that value, an Effect runs as is, anything else is the success value.
 */
export const fromResult = (result: unknown): Effect.Effect<unknown, unknown> => {
  if (Effect.isEffect(result)) return result as Effect.Effect<unknown, unknown>;
  if (isThenable(result)) {
    return Effect.async<unknown, unknown>((resume) => {
      result.then(
        (value) => resume(Effect.succeed(value)),
        (error: unknown) => resume(Effect.fail(error)),
      );
    });
  }
  return Effect.succeed(result);
};

const lastIfObservable = (value: unknown): Effect.Effect<unknown, unknown> =>
  isObservable(value) ? lastValue(value) : Effect.succeed(value);

/**
 * {@link fromResult}, then the last value of an rxjs Observable it gives (its error is the
 * failure), as NestJS's `lastValueFrom` does for what handlers, interceptors and guards return.
 */
export const awaitResult = (result: unknown): Effect.Effect<unknown, unknown> =>
  isObservable(result) ? lastValue(result) : Effect.flatMap(fromResult(result), lastIfObservable);

/** Runs classic code (which may throw, return a Promise or an Effect) as an Effect. */
export const fromUserCode = (run: () => unknown): Effect.Effect<unknown, unknown> =>
  Effect.suspend(() => {
    try {
      return fromResult(run());
    } catch (error) {
      return Effect.fail(error);
    }
  });
