import type { InjectionToken } from "./Token.js";

/**
 * Identifies a set of request-scoped and transient instances for {@link ModuleRef.resolve}:
 * resolving with the same id gives the same instances. Make one with {@link createContextId}.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export interface ContextId {
  readonly id: number;
}

/**
 * A new {@link ContextId}, NestJS's `createContextId()` (also `ContextIdFactory.create()`).
 *
 * @since 0.1.0
 * @category dependency injection
 */
export const createContextId = (): ContextId => ({ id: Math.random() });

/**
 * NestJS's `ContextIdFactory`: `create()` a new {@link ContextId}; `apply(strategy)` turns
 * durable providers on for every app of the process (see {@link ContextIdStrategy}; until then
 * a durable provider is request-scoped); `strategy` is the one applied (set it to `undefined`
 * to turn them off again).
 *
 * @since 0.1.0
 * @category dependency injection
 */
export const ContextIdFactory: {
  /** A new {@link ContextId}. */
  create(): ContextId;
  /** Makes `strategy` decide which requests share the durable providers. */
  apply(strategy: ContextIdStrategy<never>): void;
  strategy: ContextIdStrategy<never> | undefined;
} = {
  create: createContextId,
  apply(strategy) {
    this.strategy = strategy;
  },
  strategy: undefined,
};

/**
 * What a {@link ContextIdResolver} is asked about: the provider being built, and whether its
 * whole tree is durable (declared durable, depending only on singletons, the request and
 * durable providers).
 *
 * @since 0.1.0
 * @category dependency injection
 */
export interface HostComponentInfo {
  readonly token: InjectionToken;
  readonly isTreeDurable: boolean;
}

/**
 * What a {@link ContextIdStrategy} decides for one request: the context a durable provider is
 * built in (`resolve`; the request's own context, given to `attach`, for a per-request
 * instance), and what `REQUEST` injects into providers built in a shared context (`payload`;
 * the first request's context without it).
 *
 * @since 0.1.0
 * @category dependency injection
 */
export interface ContextIdResolver {
  /** The context a durable provider of this request is built in. */
  readonly resolve: (info: HostComponentInfo) => ContextId;
  /** What `REQUEST` injects into the providers built in a shared context. */
  readonly payload?: unknown;
}

/**
 * NestJS's durable providers' strategy, given to `ContextIdFactory.apply()`: for each request
 * that reaches a durable provider, `attach` maps it to a context (a tenant's): the providers of
 * one context are built once and shared by its requests, and released when the app closes.
 * `request` is the request context (`request.headers`).
 *
 * @since 0.1.0
 * @category dependency injection
 */
export interface ContextIdStrategy<TRequest = unknown> {
  /** Maps a request (its own context and the request) to the context its durable providers use. */
  attach(
    contextId: ContextId,
    request: TRequest,
  ): ContextIdResolver | ((info: HostComponentInfo) => ContextId) | undefined;
}
