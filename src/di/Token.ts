/**
 * A class constructor producing `T`.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export type Type<T = unknown> = new (...args: never[]) => T;

/** An abstract class, usable as a token but not constructible. @since 0.1.0 @category dependency injection */
export type AbstractType<T = unknown> = abstract new (...args: never[]) => T;

/**
 * What a provider is registered and injected under: a class, a string or a symbol.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export type InjectionToken<T = unknown> = string | symbol | Type<T> | AbstractType<T>;

/** A readable name for a token, used in startup errors. */
export const tokenName = (token: unknown): string => {
  if (typeof token === "function") return token.name || "<anonymous class>";
  if (typeof token === "symbol") return token.toString();
  if (typeof token === "string") return JSON.stringify(token);
  return String(token);
};
