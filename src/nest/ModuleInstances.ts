import * as Effect from "effect/Effect";
import { isForwardReference } from "../di/forwardRef.js";
import type { InjectTarget } from "../di/Inject.js";
import type { Injector } from "../di/Injector.js";
import type { DynamicModule, ModuleOptions } from "../di/Module.js";
import { MetadataKey, readMetadata } from "../di/metadata.js";
import { StartupError } from "../di/StartupError.js";
import { type InjectionToken, tokenName } from "../di/Token.js";

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
 * `onApplicationBootstrap`, `beforeApplicationShutdown`, `onApplicationShutdown`), imports first,
 * created once at startup with their constructor's dependencies from the app's providers (as
 * NestJS injects a module's constructor). Modules without such methods are not instantiated.
 */
export const moduleInstances = (
  root: unknown,
  injector: Injector,
): Effect.Effect<ReadonlyArray<unknown>, StartupError> =>
  Effect.forEach(moduleClasses(root).filter(needsInstance), (cls) => {
    const types = readMetadata<ReadonlyArray<unknown>>(MetadataKey.paramTypes, cls) ?? [];
    const injected =
      readMetadata<ReadonlyMap<number, InjectTarget>>(MetadataKey.inject, cls) ?? new Map();
    const count = Math.max(types.length, cls.length);
    return Effect.map(
      Effect.forEach(
        Array.from({ length: count }, (_, index) => index),
        (index) => {
          const target = injected.get(index) ?? types[index];
          const token = (
            isForwardReference(target) ? target.forwardRef() : target
          ) as InjectionToken;
          const node = token === undefined ? undefined : injector.lookup(token);
          if (node === undefined) {
            return new StartupError({
              message: `Cannot create the module ${cls.name}: no provider of ${token === undefined ? `its parameter #${index}` : tokenName(token)} for its constructor`,
            });
          }
          return Effect.mapError(
            injector.instance(node, undefined),
            (cause) => new StartupError({ message: `Cannot create the module ${cls.name}`, cause }),
          );
        },
      ),
      (args) => Reflect.construct(cls, args) as unknown,
    );
  });
