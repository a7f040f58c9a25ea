/**
 * A reference to something not defined yet when a decorator runs (two files importing each
 * other): `forwardRef(() => CatsService)`. Strata calls `forwardRef` when it compiles the
 * module graph, at startup, when every class exists.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export interface ForwardReference<T = unknown> {
  /** Returns the class or token, read only when it is needed (after every module has loaded). */
  readonly forwardRef: () => T;
}

/**
 * Refers to a class or module lazily, in `@Inject(forwardRef(() => X))` (a provider whose file
 * and `X`'s import each other, or two providers that depend on each other) and in
 * `imports: [forwardRef(() => OtherModule)]` (two modules importing each other). As in NestJS,
 * two singletons depending on each other through `forwardRef` each receive the other's instance,
 * but a constructor must not use the other one: it may not be constructed yet.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export const forwardRef = <T>(fn: () => T): ForwardReference<T> => ({ forwardRef: fn });

/** `true` when `value` is a {@link ForwardReference}. */
export const isForwardReference = (value: unknown): value is ForwardReference =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { forwardRef?: unknown }).forwardRef === "function";
