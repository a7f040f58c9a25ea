import { isForwardReference } from "./forwardRef.js";
import type { Dependency } from "./GraphNodes.js";
import type { InjectedProperty, InjectTarget } from "./Inject.js";
import { MetadataKey, readMetadata } from "./metadata.js";
import { StartupError } from "./StartupError.js";
import type { InjectionToken, Type } from "./Token.js";

// What a class depends on, read from its decorator metadata at startup.

const BUILTIN_TYPES: ReadonlyArray<unknown> = [Object, Array, Function, String, Number, Boolean];

/** A declared token, with its `forwardRef` resolved at startup. */
const resolveTarget = (
  target: InjectTarget,
  where: () => string,
): { readonly token: InjectionToken; readonly forward: boolean } => {
  if (!isForwardReference(target)) return { token: target, forward: false };
  const token = target.forwardRef();
  if (token === undefined || token === null) {
    throw new StartupError({
      message: `Cannot inject ${where()}: its forwardRef(() => ...) returns ${String(token)} (the class is not defined when the app starts).`,
    });
  }
  return { token, forward: true };
};

/**
 * The dependencies of a class: its constructor parameters (`@Inject` tokens, else emitted
 * parameter types; `@Optional()` ones may be missing), then its `@Inject()` properties. Throws a
 * {@link StartupError} naming the parameter when a type is missing or not injectable.
 */
export const classDependencies = (
  cls: Type<unknown>,
  context: string,
): ReadonlyArray<Dependency> => {
  const types = readMetadata<ReadonlyArray<unknown>>(MetadataKey.paramTypes, cls);
  const injected =
    readMetadata<ReadonlyMap<number, InjectTarget>>(MetadataKey.inject, cls) ?? new Map();
  const optional = new Set(readMetadata<ReadonlyArray<number>>(MetadataKey.optional, cls) ?? []);
  // NestJS's rule: a class no decorator touched (so the compiler emitted no types for it) is
  // built with its `@Inject` parameters only, the others `undefined`. A decorated class without
  // types was compiled without `emitDecoratorMetadata` (esbuild): that fails below, naming it.
  const undecorated = types === undefined && Reflect.getOwnMetadataKeys(cls).length === 0;
  const count = Math.max(
    undecorated ? 0 : (types?.length ?? 0),
    undecorated ? 0 : cls.length,
    ...Array.from(injected.keys(), (i) => i + 1),
  );
  const dependencies: Array<Dependency> = [];
  for (let index = 0; index < count; index++) {
    const where = `parameter #${index} of ${cls.name} (${context})`;
    const explicit = injected.get(index);
    if (explicit !== undefined) {
      const { token, forward } = resolveTarget(explicit, () => where);
      dependencies.push({
        token,
        forward,
        optional: optional.has(index),
        where: `parameter #${index}`,
      });
      continue;
    }
    if (types === undefined) {
      throw new StartupError({
        message: `Cannot inject ${where}: ${cls.name} has no type metadata ("design:paramtypes"). esbuild (the default transform of vitest, Vite and tsx) never emits it: compile with tsc or swc and "emitDecoratorMetadata" (under vitest, the unplugin-swc plugin: see "Decorator metadata under vitest" in docs/testing.md), decorate the class (@Injectable() or @Controller()), import "reflect-metadata" once, or mark the parameter with @Inject(token).`,
      });
    }
    const type = types[index];
    if (type === undefined) {
      throw new StartupError({
        message: `Cannot inject ${where}: its type is undefined at run time (a circular import between files?). Mark it with @Inject(forwardRef(() => TheClass)), or @Inject(token).`,
      });
    }
    if (BUILTIN_TYPES.includes(type)) {
      throw new StartupError({
        message: `Cannot inject ${where}: its type is ${(type as Function).name} (an interface, a union, a primitive or a type-only import). Mark it with @Inject(token).`,
      });
    }
    dependencies.push({
      token: type as InjectionToken,
      forward: false,
      optional: optional.has(index),
      where: `parameter #${index}`,
    });
  }
  const optionalProperties = new Set(
    readMetadata<ReadonlyArray<string | symbol>>(MetadataKey.optionalProperties, cls) ?? [],
  );
  for (const property of injectedProperties(cls)) {
    const where = `property ${String(property.key)} of ${cls.name} (${context})`;
    if (property.token === undefined || BUILTIN_TYPES.includes(property.token)) {
      throw new StartupError({
        message: `Cannot inject ${where}: it has no token (no emitted type, or an interface, a union or a primitive). Write @Inject(token).`,
      });
    }
    const { token, forward } = resolveTarget(property.token, () => where);
    dependencies.push({
      token,
      forward,
      optional: optionalProperties.has(property.key),
      where: `property ${String(property.key)}`,
    });
  }
  return dependencies;
};

/** The properties of `cls` marked `@Inject()`, in declaration order. */
export const injectedProperties = (cls: Function): ReadonlyArray<InjectedProperty> =>
  readMetadata<ReadonlyArray<InjectedProperty>>(MetadataKey.injectProperties, cls) ?? [];
