import * as Effect from "effect/Effect";
import { isForwardReference } from "../di/forwardRef.js";
import type { Injector } from "../di/Injector.js";
import type { DynamicModule, ModuleOptions } from "../di/Module.js";
import { MetadataKey, readMetadata } from "../di/metadata.js";
import { StartupError } from "../di/StartupError.js";
import type { InjectionToken } from "../di/Token.js";

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
