import { type ContextId, createContextId } from "./ContextId.js";
import type { Scope } from "./Scope.js";
import type { InjectionToken, Type } from "./Token.js";

export type { ContextId } from "./ContextId.js";

/**
 * How {@link ModuleRef.get} and {@link ModuleRef.resolve} look a token up: `strict` only among
 * the providers of the app's root module (its own and what its imports export), else in any
 * module; `each` returns every provider registered under the token (one per module), as a list.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export interface ModuleRefOptions {
  readonly strict?: boolean;
  readonly each?: boolean;
}

/** What a {@link ModuleRef} reads of the app's injector (given by the injector that builds it). */
export interface ModuleRefSource {
  /** Synchronously, the instances of `token` (singletons, or new transients), `[]` when none. */
  readonly getAll: (token: InjectionToken, options: ModuleRefOptions) => ReadonlyArray<unknown>;
  /** The instances of `token` in the context `contextId` (request-scoped and transient ones too). */
  readonly resolveAll: (
    token: InjectionToken,
    contextId: ContextId,
    options: ModuleRefOptions,
  ) => Promise<ReadonlyArray<unknown>>;
  /** A new instance of `type`, its dependencies injected from the app. */
  readonly create: (type: Type<unknown>) => Promise<unknown>;
  /** What `REQUEST` injects in the context `contextId`. */
  readonly registerRequest: (request: unknown, contextId: ContextId) => void;
  /** The name of the token for errors. */
  readonly describe: (token: InjectionToken) => string;
  /** The effective scope of the provider of `token`, `undefined` when none is registered. */
  readonly scopeOf: (token: InjectionToken) => Scope | undefined;
}

/** What {@link ModuleRef.introspect} tells of a provider. @since 0.1.0 @category dependency injection */
export interface IntrospectionResult {
  /** Its effective scope (`REQUEST` when it depends on a request-scoped provider). */
  readonly scope: Scope;
}

/**
 * NestJS's `ModuleRef`: the app's providers, read at run time. Inject it
 * (`constructor(private readonly moduleRef: ModuleRef)`) to `get` a singleton, `resolve` a
 * request-scoped or transient provider in a context, or `create` a class with its dependencies
 * injected. One per app: it sees every module's providers (`{ strict: true }`: the root
 * module's).
 *
 * @since 0.1.0
 * @category dependency injection
 */
export class ModuleRef {
  /** @internal */
  constructor(private readonly source: ModuleRefSource) {}

  /** The singleton (or a new transient) of `token`; throws when no module provides it. */
  get<T>(token: InjectionToken<T>, options?: ModuleRefOptions & { readonly each?: false }): T;
  /** Every provider of `token` (one per module that provides it). */
  get<T>(token: InjectionToken<T>, options: ModuleRefOptions & { readonly each: true }): Array<T>;
  get<T>(token: InjectionToken<T>, options: ModuleRefOptions = {}): T | Array<T> {
    const all = this.source.getAll(token, options) as Array<T>;
    if (options.each === true) return all;
    if (all.length === 0) throw this.unknown(token);
    return all[all.length - 1] as T;
  }

  /**
   * The instance of `token` in the context `contextId` (a new context without one): a
   * request-scoped or transient provider is created once per context; a singleton is itself.
   */
  resolve<T>(
    token: InjectionToken<T>,
    contextId?: ContextId,
    options?: ModuleRefOptions & { readonly each?: false },
  ): Promise<T>;
  /** Every provider of `token` in the context `contextId`. */
  resolve<T>(
    token: InjectionToken<T>,
    contextId: ContextId | undefined,
    options: ModuleRefOptions & { readonly each: true },
  ): Promise<Array<T>>;
  async resolve<T>(
    token: InjectionToken<T>,
    contextId: ContextId = createContextId(),
    options: ModuleRefOptions = {},
  ): Promise<T | Array<T>> {
    const all = (await this.source.resolveAll(token, contextId, options)) as Array<T>;
    if (options.each === true) return all;
    if (all.length === 0) throw this.unknown(token);
    return all[all.length - 1] as T;
  }

  /** A new instance of `type` (not registered anywhere), its constructor's dependencies injected. */
  create<T>(type: Type<T>): Promise<T> {
    return this.source.create(type) as Promise<T>;
  }

  /** The scope of the provider of `token` (NestJS's `introspect`); throws when none is registered. */
  introspect(token: InjectionToken): IntrospectionResult {
    const scope = this.source.scopeOf(token);
    if (scope === undefined) throw this.unknown(token);
    return { scope };
  }

  /** Makes `request` what `REQUEST` injects into providers resolved in the context `contextId`. */
  registerRequestByContextId(request: unknown, contextId: ContextId): void {
    this.source.registerRequest(request, contextId);
  }

  private unknown(token: InjectionToken): Error {
    return new Error(
      `No provider of ${this.source.describe(token)} in the app: add it to a module's providers.`,
    );
  }
}
