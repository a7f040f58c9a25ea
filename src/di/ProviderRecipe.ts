import { classDependencies, injectedProperties } from "./ClassDependencies.js";
import type { Dependency, ModuleNode, Pending, ProviderNode } from "./GraphNodes.js";
import type { InjectableMetadata } from "./Injectable.js";
import { MetadataKey, readMetadata } from "./metadata.js";
import {
  isProviderRecord,
  type OptionalFactoryDependency,
  type Provider,
  type ProviderLike,
  providerToken,
} from "./Provider.js";
import { Scope } from "./Scope.js";
import { StartupError } from "./StartupError.js";
import { type InjectionToken, type Type, tokenName } from "./Token.js";

// Provider recipes: how each kind of provider (a class, useClass, useFactory, useExisting,
// useValue, an app's provider shared with a lazy module) is built, before its dependencies are
// resolved.

/** The scope a class declares with `@Injectable({ scope })`, singleton by default. */
export const scopeOf = (cls: Function): Scope =>
  readMetadata<InjectableMetadata>(MetadataKey.injectable, cls)?.scope ?? Scope.SINGLETON;

/** A provider of the app, shared by a lazily loaded module's graph: its instance is the app's. */
export const inheritedProvider = (node: ProviderNode, module: ModuleNode): Pending => ({
  token: node.token,
  name: node.name,
  module,
  kind: "inherited",
  create: () => undefined,
  synchronous: true,
  dependencies: [],
  declaredScope: node.scope,
  inherited: node,
});

/** How an `APP_*` provider is named in errors: its class, its alias, its value's class or "factory". */
export const enhancerName = (provider: Provider<unknown>): string =>
  provider.useClass?.name ??
  (provider.useExisting !== undefined
    ? tokenName(provider.useExisting)
    : "useValue" in provider
      ? (((provider.useValue ?? {}) as object).constructor?.name ?? "value")
      : "factory");

/** Constructs `cls` from its dependencies' instances: constructor arguments, then `@Inject()` properties. */
const classCreate = (cls: Type<unknown>): ((args: ReadonlyArray<unknown>) => unknown) => {
  const Ctor = cls as unknown as new (...args: ReadonlyArray<unknown>) => unknown;
  const properties = injectedProperties(cls);
  if (properties.length === 0) return (args) => new Ctor(...args);
  return (args) => {
    const count = args.length - properties.length;
    const instance = new Ctor(...args.slice(0, count)) as Record<string | symbol, unknown>;
    properties.forEach((property, i) => {
      instance[property.key] = args[count + i];
    });
    return instance;
  };
};

/**
 * How to build a class that is not a provider (a guard or a pipe given as a class): the tokens
 * it depends on, in order (`optional` ones may be missing), and its constructor taking their
 * instances (constructor arguments, then `@Inject()` properties).
 */
export const classRecipe = (
  cls: Type<unknown>,
  context: string,
): {
  readonly dependencies: ReadonlyArray<{
    readonly token: InjectionToken;
    readonly optional: boolean;
  }>;
  readonly create: (args: ReadonlyArray<unknown>) => unknown;
} => ({ dependencies: classDependencies(cls, context), create: classCreate(cls) });

/** A class provider of `module`, registered under `token`. */
export const classProvider = (
  token: InjectionToken,
  cls: Type<unknown>,
  module: ModuleNode,
  scope: Scope,
): Pending => ({
  token,
  name: cls.name,
  module,
  kind: "provider",
  declaredScope: scope,
  create: classCreate(cls),
  synchronous: true,
  dependencies: () => classDependencies(cls, `in ${module.path}`),
  prototype: cls.prototype as object,
  metatype: cls,
  ...(readMetadata<InjectableMetadata>(MetadataKey.injectable, cls)?.durable === true
    ? { durable: true }
    : {}),
});

const factoryDependency = (
  entry: InjectionToken | OptionalFactoryDependency,
  index: number,
): Dependency => {
  const optional =
    typeof entry === "object" && entry !== null && "token" in entry && "optional" in entry;
  return {
    token: optional ? entry.token : (entry as InjectionToken),
    optional: optional && entry.optional === true,
    forward: false,
    where: `parameter #${index}`,
  };
};

/** A providers-list entry of `module` as a recipe; throws a {@link StartupError} when malformed. */
export const pendingProvider = (entry: ProviderLike, module: ModuleNode): Pending => {
  if (!isProviderRecord(entry)) {
    if (typeof entry !== "function") {
      throw new StartupError({
        message: `${module.path} lists ${String(entry)} as a provider: expected a class or { provide, useClass | useValue | useFactory | useExisting }.`,
      });
    }
    return classProvider(entry, entry, module, scopeOf(entry));
  }
  const provider = entry as Provider<unknown>;
  const token = providerToken(provider);
  if (token === undefined || token === null) {
    throw new StartupError({
      message: `${module.path} lists a provider whose token is ${String(token)} (a circular import between files?).`,
    });
  }
  const name = tokenName(token);
  const kinds = [
    provider.useClass,
    provider.useFactory,
    provider.useExisting,
    "useValue" in provider ? true : undefined,
  ].filter((k) => k !== undefined);
  if (kinds.length !== 1) {
    throw new StartupError({
      message: `Provider ${name} in ${module.path} must have exactly one of useClass, useValue, useFactory, useExisting.`,
    });
  }
  if (provider.useClass !== undefined) {
    const pending = classProvider(
      token,
      provider.useClass,
      module,
      provider.scope ?? scopeOf(provider.useClass),
    );
    return provider.durable === undefined
      ? { ...pending, name }
      : { ...pending, name, durable: provider.durable };
  }
  if (provider.useFactory !== undefined) {
    const factory = provider.useFactory as (...args: ReadonlyArray<unknown>) => unknown;
    return {
      token,
      name,
      module,
      kind: "provider",
      declaredScope: provider.scope ?? Scope.SINGLETON,
      create: (args) => factory(...args),
      synchronous: false,
      metatype: factory,
      ...(provider.durable === true ? { durable: true } : {}),
      dependencies: (provider.inject ?? []).map(factoryDependency),
    };
  }
  if (provider.useExisting !== undefined) {
    const target = provider.useExisting;
    return {
      token,
      name,
      module,
      kind: "alias",
      declaredScope: Scope.SINGLETON,
      create: (args) => args[0],
      synchronous: true,
      dependencies: [{ token: target, optional: false, forward: false, where: "useExisting" }],
    };
  }
  const value = provider.useValue;
  return {
    token,
    name,
    module,
    kind: "provider",
    declaredScope: Scope.SINGLETON,
    create: () => value,
    synchronous: true,
    dependencies: [],
  };
};
