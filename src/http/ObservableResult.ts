import * as Effect from "effect/Effect";

/** What Strata uses of an rxjs `Observable`: subscribing with an observer, and unsubscribing. */
export interface SubscribableResult {
  subscribe(observer: {
    readonly next: (value: unknown) => void;
    readonly error: (error: unknown) => void;
    readonly complete: () => void;
  }): { unsubscribe(): void };
}

/**
 * `true` for an rxjs `Observable` (a `Subject` included), checked as rxjs's own `isObservable`
 * does (a `lift` and a `subscribe` function), so without loading rxjs: any copy of rxjs counts.
 */
export const isObservable = (value: unknown): value is SubscribableResult =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { subscribe?: unknown }).subscribe === "function" &&
  typeof (value as { lift?: unknown }).lift === "function";

/** The failure of an Observable that completed without a value (rxjs's `EmptyError`: a 500). */
const empty = () => new Error("no elements in sequence");

/**
 * The last value of an Observable, as NestJS's `lastValueFrom` gives it: an error it emits is
 * the failure, completing empty fails (a 500, as in NestJS), and interrupting unsubscribes. An
 * Observable that completes as it is subscribed (`of(value)`, a synchronous pipeline) gives a
 * plain succeed or fail: waiting with `Effect.async` costs a request many times more.
 */
export const lastValue = (observable: SubscribableResult): Effect.Effect<unknown, unknown> =>
  Effect.suspend(() => {
    let has = false;
    let last: unknown;
    let outcome: Effect.Effect<unknown, unknown> | undefined;
    let resume: ((effect: Effect.Effect<unknown, unknown>) => void) | undefined;
    const settle = (effect: Effect.Effect<unknown, unknown>) => {
      outcome = effect;
      resume?.(effect);
    };
    const subscription = observable.subscribe({
      next: (value) => {
        has = true;
        last = value;
      },
      error: (error) => settle(Effect.fail(error)),
      complete: () => settle(has ? Effect.succeed(last) : Effect.fail(empty())),
    });
    if (outcome !== undefined) return outcome;
    return Effect.async<unknown, unknown>((callback) => {
      if (outcome !== undefined) return callback(outcome);
      resume = callback;
      return Effect.sync(() => subscription.unsubscribe());
    });
  });
