import * as Cause from "effect/Cause";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as FiberId from "effect/FiberId";
import * as Scope from "effect/Scope";
import { Injector, makeInjector } from "./Injector.js";
import { compileModuleGraph } from "./ModuleGraph.js";
import { type Provider, type ProviderLike, providerToken } from "./Provider.js";
import { makeRequestStore, type RequestStore } from "./RequestStore.js";
import { type InjectionToken, tokenName } from "./Token.js";

class ContainerRoot {}

interface Built {
  readonly scope: Scope.CloseableScope;
  readonly injector: Injector;
}

interface RequestScope {
  readonly store: RequestStore;
  readonly scope: Scope.CloseableScope;
}

let defaultContainer: Container | undefined;

const run = <A>(effect: Effect.Effect<A, unknown>): A => {
  const exit = Effect.runSyncExit(effect);
  if (Exit.isSuccess(exit)) return exit.value;
  throw Cause.squash(exit.cause);
};

/**
 * A standalone dependency container, for code outside an app's module graph (scripts, tests,
 * legacy code). It is a facade over the same engine as {@link StrataApp}: registered providers
 * are compiled into one module and built into Layers on first use. Registering a provider after
 * that rebuilds the container on the next `resolve` (singletons are then created anew).
 *
 * @since 0.1.0
 * @category dependency injection
 */
export class Container {
  /** The process-wide default container. */
  static getInstance(): Container {
    defaultContainer ??= new Container();
    return defaultContainer;
  }

  /** A fresh container isolated from the default one, for tests. */
  static createTestInstance(): Container {
    return new Container();
  }

  private readonly providers = new Map<InjectionToken, ProviderLike>();
  private built: Built | undefined;
  /** The build in progress (an async factory keeps it running after a sync `resolve` gave up). */
  private building: Deferred.Deferred<Built, unknown> | undefined;
  /** Bumped by every registration, so a build of older registrations is discarded. */
  private generation = 0;
  private readonly requests = new Map<string, RequestScope>();

  /** Registers an existing instance under `token`. */
  register<T>(token: InjectionToken<T>, instance: T): void {
    this.registerProvider({ token, useValue: instance });
  }

  /** Registers a provider (a class, or `{ token | provide, useClass | useValue | useFactory | useExisting }`). */
  registerProvider<T>(provider: Provider<T> | ProviderLike): void {
    const token =
      typeof provider === "function" ? provider : providerToken(provider as Provider<unknown>);
    this.providers.set(token, provider as ProviderLike);
    this.invalidate();
  }

  /**
   * The instance registered under `token`: the singleton, a new transient, or the instance of
   * request `requestId` for request-scoped providers. Throws when the token is unknown, when a
   * request-scoped provider is asked for without a request id, or when a factory is
   * asynchronous (use {@link Container.resolveAsync} then).
   */
  resolve<T>(token: InjectionToken<T>, requestId?: string): T {
    try {
      return run(this.resolveEffect(token, requestId)) as T;
    } catch (error) {
      if (
        Cause.isRuntimeException(error) ||
        (error instanceof Error && error.name === "AsyncFiberException")
      ) {
        throw new Error(`${tokenName(token)} is created asynchronously: use resolveAsync()`);
      }
      throw error;
    }
  }

  /** Like {@link Container.resolve}, for providers whose factories are asynchronous. */
  async resolveAsync<T>(token: InjectionToken<T>, requestId?: string): Promise<T> {
    const exit = await Effect.runPromiseExit(this.resolveEffect(token, requestId));
    if (Exit.isSuccess(exit)) return exit.value as T;
    throw Cause.squash(exit.cause);
  }

  /**
   * Releases the request-scoped instances of `requestId` (running their `onModuleDestroy`:
   * synchronous hooks before this returns, asynchronous ones complete in the background).
   */
  clearRequestScope(requestId: string): void {
    const request = this.requests.get(requestId);
    if (request === undefined) return;
    this.requests.delete(requestId);
    Effect.runFork(Scope.close(request.scope, Exit.void), { immediate: true });
  }

  /** Releases every instance (the singletons' `onModuleDestroy` run in reverse order). */
  async dispose(): Promise<void> {
    const requests = [...this.requests.values()];
    this.requests.clear();
    await Promise.all(
      requests.map((request) => Effect.runPromise(Scope.close(request.scope, Exit.void))),
    );
    const built = this.built;
    this.built = undefined;
    this.building = undefined;
    this.generation++;
    if (built !== undefined) await Effect.runPromise(Scope.close(built.scope, Exit.void));
  }

  private invalidate(): void {
    const built = this.built;
    this.built = undefined;
    this.building = undefined;
    this.generation++;
    for (const id of [...this.requests.keys()]) this.clearRequestScope(id);
    if (built !== undefined) Effect.runFork(Scope.close(built.scope, Exit.void));
  }

  /**
   * The built container, shared by every caller: a build that went asynchronous (a Promise
   * factory reached through a synchronous `resolve`) keeps running, and later callers await
   * that same build instead of starting a second one whose singletons would never be released.
   */
  private build(): Effect.Effect<Built, unknown> {
    return Effect.suspend(() => {
      if (this.built !== undefined) return Effect.succeed(this.built);
      if (this.building !== undefined) return Deferred.await(this.building);
      const deferred = Deferred.unsafeMake<Built, unknown>(FiberId.none);
      const generation = this.generation;
      this.building = deferred;
      return this.buildGraph().pipe(
        Effect.flatMap((built) => {
          if (generation === this.generation) {
            this.built = built;
            return Effect.succeed(built);
          }
          // Registrations changed while building: release this one and build them.
          return Effect.zipRight(Scope.close(built.scope, Exit.void), this.build());
        }),
        Effect.onExit((exit) => {
          if (this.building === deferred) this.building = undefined;
          return Deferred.done(deferred, exit);
        }),
      );
    });
  }

  private buildGraph(): Effect.Effect<Built, unknown> {
    return Effect.gen(this, function* () {
      const graph = yield* Effect.try(() =>
        compileModuleGraph({ module: ContainerRoot, providers: [...this.providers.values()] }),
      ).pipe(Effect.mapError((e) => (e as { error?: unknown }).error ?? e));
      const scope = yield* Scope.make();
      const injector = yield* Scope.extend(makeInjector(graph), scope).pipe(
        Effect.tapErrorCause((cause) => Scope.close(scope, Exit.failCause(cause))),
      );
      return { scope, injector };
    });
  }

  private resolveEffect(
    token: InjectionToken,
    requestId: string | undefined,
  ): Effect.Effect<unknown, unknown> {
    return Effect.flatMap(this.build(), ({ injector }) => {
      const node = injector.lookup(token);
      if (node === undefined) {
        return Effect.fail(new Error(`No provider registered for ${tokenName(token)}`));
      }
      return injector.instance(
        node,
        requestId === undefined ? undefined : this.requestStore(requestId),
      );
    });
  }

  private requestStore(requestId: string): RequestStore {
    let request = this.requests.get(requestId);
    if (request === undefined) {
      const scope = Effect.runSync(Scope.make());
      request = { scope, store: makeRequestStore(scope) };
      this.requests.set(requestId, request);
    }
    return request.store;
  }
}
