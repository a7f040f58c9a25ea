import type * as Effect from "effect/Effect";
import type { Scope } from "./Scope.js";
import type { InjectionToken, Type } from "./Token.js";

/**
 * A provider registered under `token`: exactly one of `useClass`, `useValue` or `useFactory`
 * (a factory may return a value, a Promise or an Effect, and receives the `inject` tokens'
 * instances in order). `scope` defaults to the class's `@Injectable` scope, else singleton.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export interface Provider<T = unknown> {
  readonly token: InjectionToken<T>;
  readonly useClass?: Type<T>;
  readonly useValue?: T;
  readonly useFactory?: (...args: never[]) => T | Promise<T> | Effect.Effect<T, unknown>;
  readonly scope?: Scope;
  readonly inject?: ReadonlyArray<InjectionToken>;
}

/** What a module's `providers` list accepts: an injectable class or a {@link Provider}. */
export type ProviderLike = Type<unknown> | Provider<unknown>;

/** `true` when a providers-list entry is a {@link Provider} record rather than a class. */
export const isProviderRecord = (entry: ProviderLike): entry is Provider<unknown> =>
  typeof entry === "object" && entry !== null && "token" in entry;
