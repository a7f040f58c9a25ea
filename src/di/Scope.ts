/**
 * How long a provider's instance lives.
 *
 * - `SINGLETON`: one per app (the default).
 * - `TRANSIENT`: a new instance for every injection.
 * - `REQUEST`: a new instance per HTTP request, released when the request ends. A provider
 *   that depends on a request-scoped provider is request-scoped too (the scope bubbles up).
 *
 * @since 0.1.0
 * @category dependency injection
 */
export enum Scope {
  SINGLETON = "singleton",
  /** NestJS's name of `SINGLETON`. */
  // biome-ignore lint/suspicious/noDuplicateEnumValues: the same scope under NestJS's name
  DEFAULT = "singleton",
  TRANSIENT = "transient",
  REQUEST = "request",
}
