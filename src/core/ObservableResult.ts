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
 * the failure, completing empty fails (a 500, as in NestJS), and interrupting unsubscribes.
 */
export const lastValue = (observable: SubscribableResult): Effect.Effect<unknown, unknown> =>
  Effect.async<unknown, unknown>((resume) => {
    let has = false;
    let last: unknown;
    const subscription = observable.subscribe({
      next: (value) => {
        has = true;
        last = value;
      },
      error: (error) => resume(Effect.fail(error)),
      complete: () => resume(has ? Effect.succeed(last) : Effect.fail(empty())),
    });
    return Effect.sync(() => subscription.unsubscribe());
  });
