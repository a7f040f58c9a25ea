import * as Effect from "effect/Effect";
import { isForwardReference } from "./forwardRef.js";
import type { Injector } from "./Injector.js";
import type { DynamicModule, ModuleOptions } from "./Module.js";
import { MetadataKey, readMetadata } from "./metadata.js";
import { StartupError } from "./StartupError.js";
import type { InjectionToken } from "./Token.js";

/** A module class or a dynamic module, with its `forwardRef` resolved. */
const moduleClassAndOptions = (
  entry: unknown,
): { readonly cls: Function; readonly options: ModuleOptions } | undefined => {
  const resolved: unknown = isForwardReference(entry) ? entry.forwardRef() : entry;
  if (typeof resolved === "function") {
    const options = readMetadata<ModuleOptions>(MetadataKey.module, resolved);
    return options === undefined ? undefined : { cls: resolved, options };
  }
  if (typeof resolved === "object" && resolved !== null && "module" in resolved) {
    const dynamic = resolved as DynamicModule;
    const own = readMetadata<ModuleOptions>(MetadataKey.module, dynamic.module) ?? {};
    return {
      cls: dynamic.module,
      options: { imports: [...(own.imports ?? []), ...(dynamic.imports ?? [])] },
    };
  }
  return undefined;
};

/** The module classes of the graph under `root`, each once, imports before their importer. */
const moduleClasses = (root: unknown): ReadonlyArray<Function> => {
  const seen = new Set<Function>();
  const order: Array<Function> = [];
  const visit = (entry: unknown): void => {
    const found = moduleClassAndOptions(entry);
    if (found === undefined || seen.has(found.cls)) return;
    seen.add(found.cls);
    for (const child of found.options.imports ?? []) visit(child);
    order.push(found.cls);
  };
  visit(root);
  return order;
};

/** Whether a module class has something for the app to call (hooks or `configure`). */
const needsInstance = (cls: Function): boolean => {
  const prototype = cls.prototype as Record<string, unknown>;
  return [
    "configure",
    "onApplicationBootstrap",
    "beforeApplicationShutdown",
    "onApplicationShutdown",
  ].some((name) => typeof prototype[name] === "function");
};

/**
 * The instances of the module classes that NestJS would call (`configure(consumer)`,
 * `onApplicationBootstrap`, `beforeApplicationShutdown`, `onApplicationShutdown`), imports
 * first: each module class is a provider of its own module (built with the others, its
 * constructor injected, as NestJS does), and these are those instances.
 */
export const moduleInstances = (
  root: unknown,
  injector: Injector,
): Effect.Effect<ReadonlyArray<unknown>, StartupError> =>
  Effect.forEach(
    // A module a testing module replaced (`overrideModule`) is not in the app: none to call.
    moduleClasses(root).flatMap((cls) => {
      const node = needsInstance(cls) ? injector.lookup(cls as InjectionToken) : undefined;
      return node === undefined ? [] : [[cls, node] as const];
    }),
    ([cls, node]) =>
      Effect.mapError(
        injector.instance(node, undefined),
        (cause) => new StartupError({ message: `Cannot create the module ${cls.name}`, cause }),
      ),
  );

/**
 * `modules` (instances of the module classes under `root`) in the order NestJS applies their
 * `configure(consumer)` middleware: global modules first, then by distance from `root` (the
 * longest import path to the module, so that a module comes after every module importing it),
 * modules at the same distance in the order they are first reached. The middleware of a module
 * closer to the root runs first (outermost).
 */
export const inMiddlewareOrder = (
  root: unknown,
  modules: ReadonlyArray<unknown>,
): ReadonlyArray<unknown> => {
  const imports = new Map<Function, ReadonlyArray<Function>>();
  const global = new Set<Function>();
  const reached: Array<Function> = [];
  const finished: Array<Function> = [];
  const visit = (entry: unknown): Function | undefined => {
    const found = moduleClassAndOptions(entry);
    if (found === undefined) return undefined;
    if (imports.has(found.cls)) return found.cls;
    imports.set(found.cls, []);
    reached.push(found.cls);
    const resolved: unknown = isForwardReference(entry) ? entry.forwardRef() : entry;
    if (
      readMetadata<boolean>(MetadataKey.global, found.cls) === true ||
      (typeof resolved === "object" && (resolved as DynamicModule).global === true)
    ) {
      global.add(found.cls);
    }
    const children: Array<Function> = [];
    for (const child of found.options.imports ?? []) {
      const cls = visit(child);
      if (cls !== undefined) children.push(cls);
    }
    imports.set(found.cls, children);
    finished.push(found.cls);
    return found.cls;
  };
  const rootClass = visit(root);
  // Every module before its imports (but an import closing a cycle, which is left out).
  const topological = finished.reverse();
  const position = new Map(topological.map((cls, index) => [cls, index]));
  const depth = new Map<Function, number>(rootClass === undefined ? [] : [[rootClass, 1]]);
  for (const cls of topological) {
    const childDepth = (depth.get(cls) ?? 1) + 1;
    for (const child of imports.get(cls) ?? []) {
      if ((position.get(child) ?? 0) <= (position.get(cls) ?? 0)) continue;
      if ((depth.get(child) ?? 0) < childDepth) depth.set(child, childDepth);
    }
  }
  const rank = (cls: Function) => (global.has(cls) ? 0 : (depth.get(cls) ?? Number.MAX_VALUE));
  const first = new Map(reached.map((cls, index) => [cls, index]));
  const classOf = (module: unknown) => (module as object).constructor;
  return [...modules].sort(
    (a, b) =>
      rank(classOf(a)) - rank(classOf(b)) ||
      (first.get(classOf(a)) ?? 0) - (first.get(classOf(b)) ?? 0),
  );
};
