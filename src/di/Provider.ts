import type * as Effect from "effect/Effect";
import type { Scope } from "./Scope.js";
import type { InjectionToken, Type } from "./Token.js";

/**
 * A factory dependency that may be missing: `inject: [{ token: CONFIG, optional: true }]`
 * passes `undefined` when no provider of `token` is visible.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export interface OptionalFactoryDependency {
  readonly token: InjectionToken;
  readonly optional: boolean;
}

/** What a {@link Provider} builds its instance with (one of `useClass`, `useValue`, `useFactory`, `useExisting`). */
interface ProviderRecipe<T> {
  readonly useClass?: Type<T>;
  readonly useValue?: T;
  readonly useFactory?: (...args: never[]) => T | Promise<T> | Effect.Effect<T, unknown>;
  /** Another token whose instance this token hands out: the same instance, an alias. */
  readonly useExisting?: InjectionToken;
  readonly scope?: Scope;
  /** Request-scoped, kept per tenant (see `InjectableOptions.durable`). */
  readonly durable?: boolean;
  readonly inject?: ReadonlyArray<InjectionToken | OptionalFactoryDependency>;
}

/**
 * A provider registered under `token` (or `provide`, NestJS's spelling of the same key):
 * exactly one of `useClass`, `useValue`, `useFactory` (a factory may return a value, a Promise
 * or an Effect, and receives the `inject` tokens' instances in order) or `useExisting` (an
 * alias: the instance of another token). `scope` defaults to the class's `@Injectable` scope,
 * else singleton.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export type Provider<T = unknown> = ProviderRecipe<T> &
  (
    | { readonly token: InjectionToken<T>; readonly provide?: undefined }
    | { readonly provide: InjectionToken<T>; readonly token?: undefined }
  );

/** What a module's `providers` list accepts: an injectable class or a {@link Provider}. */
export type ProviderLike = Type<unknown> | Provider<unknown>;

/** `true` when a providers-list entry is a {@link Provider} record rather than a class. */
export const isProviderRecord = (entry: ProviderLike): entry is Provider<unknown> =>
  typeof entry === "object" && entry !== null && ("token" in entry || "provide" in entry);

/** The token a provider record is registered under (`token`, else `provide`). */
export const providerToken = (provider: Provider<unknown>): InjectionToken =>
  (provider.token ?? provider.provide) as InjectionToken;
