import * as Effect from "effect/Effect";
import type { Injector } from "../../di/Injector.js";
import { classRecipe, type ProviderNode } from "../../di/ModuleGraph.js";
import { MetadataKey, readMetadata } from "../../di/metadata.js";
import type { RequestStore } from "../../di/RequestStore.js";
import { Scope } from "../../di/Scope.js";
import { StartupError } from "../../di/StartupError.js";
import { type AbstractType, type InjectionToken, type Type, tokenName } from "../../di/Token.js";
import type { CanActivate } from "../CanActivate.js";
import type { ExceptionFilter } from "../ExceptionFilter.js";
import type { Interceptor } from "../Interceptor.js";
import type { PipeTransform } from "../PipeTransform.js";

/**
 * How a guard, pipe, interceptor or filter is obtained: an instance made once at startup, or
 * (when it is, or depends on, a request-scoped provider) a maker run once per request.
 */
export type EnhancerRef<T> =
  | { readonly _tag: "Instance"; readonly instance: T }
  | {
      readonly _tag: "PerRequest";
      readonly make: (store: RequestStore) => Effect.Effect<T, unknown>;
    };

/** An exception filter with the failure types it handles (`undefined`: all). */
export interface BoundFilter {
  readonly filter: ExceptionFilter<unknown>;
  readonly catches: ReadonlyArray<AbstractType<unknown>> | undefined;
}

/** What runs around one route, in order: guards, interceptors, filters, and each argument's pipes. */
export interface Enhancers {
  readonly guards: ReadonlyArray<CanActivate>;
  readonly interceptors: ReadonlyArray<Interceptor>;
  readonly filters: ReadonlyArray<BoundFilter>;
  readonly pipes: ReadonlyArray<ReadonlyArray<PipeTransform>>;
}

/** {@link Enhancers}, before request-scoped ones are made. */
export interface EnhancerRefs {
  readonly guards: ReadonlyArray<EnhancerRef<CanActivate>>;
  readonly interceptors: ReadonlyArray<EnhancerRef<Interceptor>>;
  readonly filters: ReadonlyArray<EnhancerRef<ExceptionFilter<unknown>>>;
  readonly pipes: ReadonlyArray<ReadonlyArray<EnhancerRef<PipeTransform>>>;
}

const bind = (filter: ExceptionFilter<unknown>): BoundFilter => {
  const catches = readMetadata<ReadonlyArray<AbstractType<unknown>>>(
    MetadataKey.catch,
    (filter as object).constructor,
  );
  return { filter, catches: catches === undefined || catches.length === 0 ? undefined : catches };
};

const instanceOf = <T>(ref: EnhancerRef<T>): T | undefined =>
  ref._tag === "Instance" ? ref.instance : undefined;

const allInstances = <T>(refs: ReadonlyArray<EnhancerRef<T>>): ReadonlyArray<T> | undefined => {
  const instances = refs.map(instanceOf);
  return instances.every((i) => i !== undefined) ? (instances as ReadonlyArray<T>) : undefined;
};

/** The enhancers of a route when none is request-scoped (built once), else `undefined`. */
export const fixedEnhancers = (refs: EnhancerRefs): Enhancers | undefined => {
  const guards = allInstances(refs.guards);
  const interceptors = allInstances(refs.interceptors);
  const filters = allInstances(refs.filters);
  const pipes = refs.pipes.map(allInstances);
  if (guards === undefined || interceptors === undefined || filters === undefined) return undefined;
  if (pipes.some((list) => list === undefined)) return undefined;
  return {
    guards,
    interceptors,
    filters: filters.map(bind),
    pipes: pipes as ReadonlyArray<ReadonlyArray<PipeTransform>>,
  };
};

const make = <T>(refs: ReadonlyArray<EnhancerRef<T>>, store: RequestStore) =>
  Effect.forEach(refs, (ref) =>
    ref._tag === "Instance" ? Effect.succeed(ref.instance) : ref.make(store),
  );

/** Makes the request-scoped enhancers of a route for one request. */
export const requestEnhancers = (
  refs: EnhancerRefs,
  store: RequestStore,
): Effect.Effect<Enhancers, unknown> =>
  Effect.all({
    guards: make(refs.guards, store),
    interceptors: make(refs.interceptors, store),
    filters: Effect.map(make(refs.filters, store), (filters) => filters.map(bind)),
    pipes: Effect.forEach(refs.pipes, (list) => make(list, store)),
  });

/**
 * The providers a class's constructor (and `@Inject()` properties) ask for, looked up from the
 * root module (`undefined` for an `@Optional()` one that has none), and how to construct it.
 */
const classDependencies = (cls: Function, injector: Injector, where: string) => {
  const recipe = classRecipe(cls as Type<unknown>, where);
  const nodes = recipe.dependencies.map(({ token, optional }, index) => {
    const node = injector.lookup(token);
    if (node === undefined && !optional) {
      throw new StartupError({
        message: `Cannot inject parameter #${index} of ${cls.name} (${where}): no provider of ${tokenName(token)} is visible in the root module. Add it to the providers of a module.`,
      });
    }
    return node;
  });
  return { nodes, create: recipe.create };
};

/** A provider as an enhancer: its singleton, or (request-scoped) made once per request. */
export const providerRef = (
  injector: Injector,
  node: ProviderNode,
): Effect.Effect<EnhancerRef<unknown>, unknown> =>
  node.scope === Scope.REQUEST
    ? Effect.succeed({ _tag: "PerRequest", make: (store) => injector.instance(node, store) })
    : Effect.map(injector.instance(node, undefined), (instance) => ({
        _tag: "Instance",
        instance,
      }));

const startupError = (cls: Function, where: string) => (cause: unknown) =>
  cause instanceof StartupError
    ? cause
    : new StartupError({
        message: `Cannot create ${cls.name} (${where}): ${cause instanceof Error ? cause.message : String(cause)}`,
        cause,
      });

/**
 * Resolves guards, pipes, interceptors and filters given as instances or classes, once per
 * app: a class registered as a provider comes from the injector; any other class is created
 * with its constructor dependencies injected. Each class is created once and shared by every
 * route that uses it, unless it is (or depends on) a request-scoped provider.
 */
export const enhancerResolver = (injector: Injector) => {
  const cache = new Map<Function, EnhancerRef<unknown>>();
  /** A new instance of a class from its dependencies' nodes (`undefined`: an optional one missing). */
  const construct =
    (
      nodes: ReturnType<typeof classDependencies>["nodes"],
      create: ReturnType<typeof classDependencies>["create"],
    ) =>
    (store: RequestStore | undefined): Effect.Effect<unknown, unknown> =>
      Effect.flatMap(
        Effect.forEach(nodes, (dependency) =>
          dependency === undefined
            ? Effect.succeed(undefined)
            : injector.instance(dependency, store),
        ),
        (args) => Effect.try({ try: () => create(args), catch: (error) => error }),
      );
  /** Transient enhancers, one per consumer (controller) and class, as NestJS's inquirers. */
  const transients = new Map<Function, Map<Function, EnhancerRef<unknown>>>();
  const fromClass = (
    cls: Function,
    where: string,
  ): Effect.Effect<EnhancerRef<unknown>, unknown> => {
    const node = injector.lookup(cls as InjectionToken);
    if (node !== undefined) return providerRef(injector, node);
    return Effect.flatMap(
      Effect.try({
        try: () => classDependencies(cls, injector, where),
        catch: (error) => error,
      }),
      ({ nodes, create }): Effect.Effect<EnhancerRef<unknown>, unknown> => {
        const build = construct(nodes, create);
        if (nodes.some((dependency) => dependency?.scope === Scope.REQUEST)) {
          return Effect.succeed({ _tag: "PerRequest", make: build });
        }
        return Effect.map(
          build(undefined),
          (instance) => ({ _tag: "Instance", instance }) as const,
        );
      },
    );
  };
  /**
   * A transient enhancer class of `consumer`: its own instance, made once; for a
   * request-scoped controller, a new one for each request (NestJS's counts).
   */
  const transient = (
    cls: Function,
    where: string,
    consumer: EnhancerConsumer,
  ): Effect.Effect<EnhancerRef<unknown>, unknown> => {
    const own = transients.get(consumer.controller) ?? new Map<Function, EnhancerRef<unknown>>();
    transients.set(consumer.controller, own);
    const cached = own.get(cls);
    if (cached !== undefined) return Effect.succeed(cached);
    return Effect.flatMap(
      Effect.try({ try: () => maker(cls, where), catch: (e) => e }),
      (make): Effect.Effect<EnhancerRef<unknown>, unknown> => {
        if (consumer.requestScoped) {
          const ref: EnhancerRef<unknown> = { _tag: "PerRequest", make };
          own.set(cls, ref);
          return Effect.succeed(ref);
        }
        return Effect.map(make(undefined), (instance) => {
          const ref: EnhancerRef<unknown> = { _tag: "Instance", instance };
          own.set(cls, ref);
          return ref;
        });
      },
    );
  };
  /** How to make a new instance of an enhancer class, worked out once (dependencies looked up). */
  const maker = (
    cls: Function,
    where: string,
  ): ((store: RequestStore | undefined) => Effect.Effect<unknown, unknown>) => {
    const node = injector.lookup(cls as InjectionToken);
    if (node !== undefined) return (store) => injector.instance(node, store);
    const { nodes, create } = classDependencies(cls, injector, where);
    return construct(nodes, create);
  };
  return <T>(
    enhancer: T | AbstractType<T>,
    where: string,
    consumer?: EnhancerConsumer,
  ): Effect.Effect<EnhancerRef<T>, StartupError> => {
    if (typeof enhancer !== "function")
      return Effect.succeed({ _tag: "Instance", instance: enhancer });
    if (consumer !== undefined && isTransient(enhancer, injector)) {
      return transient(enhancer, where, consumer).pipe(
        Effect.map((ref) => ref as EnhancerRef<T>),
        Effect.mapError(startupError(enhancer, where)),
      );
    }
    const cached = cache.get(enhancer);
    if (cached !== undefined) return Effect.succeed(cached as EnhancerRef<T>);
    return fromClass(enhancer, where).pipe(
      Effect.tap((ref) => Effect.sync(() => cache.set(enhancer, ref))),
      Effect.map((ref) => ref as EnhancerRef<T>),
      Effect.mapError(startupError(enhancer, where)),
    );
  };
};

/** The controller an enhancer is bound to, and whether it is created per request. */
export interface EnhancerConsumer {
  readonly controller: Function;
  readonly requestScoped: boolean;
}

/** A transient class: `@Injectable({ scope: TRANSIENT })`, or registered so. */
const isTransient = (cls: Function, injector: Injector): boolean =>
  (injector.lookup(cls as InjectionToken)?.scope ??
    readMetadata<{ readonly scope?: Scope }>(MetadataKey.injectable, cls)?.scope) ===
  Scope.TRANSIENT;

/** Resolves enhancers given as instances or classes. */
export type EnhancerResolver = ReturnType<typeof enhancerResolver>;
