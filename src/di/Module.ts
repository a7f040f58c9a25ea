import type { ForwardReference } from "./forwardRef.js";
import { MetadataKey, writeMetadata } from "./metadata.js";
import type { Provider, ProviderLike } from "./Provider.js";
import type { InjectionToken, Type } from "./Token.js";

/**
 * A module configured at import time, as `SomeModule.forRoot(options)` returns it. Its lists
 * are added to those of `module`'s own `@Module` metadata; `global` makes its exports visible
 * to every module of the app (as `@Global()` does for a module class).
 *
 * @since 0.1.0
 * @category modules
 */
export interface DynamicModule extends ModuleOptions {
  readonly module: Type<unknown>;
  readonly global?: boolean;
}

/** An entry of a module's `imports`: a module class or a {@link DynamicModule}. @since 0.1.0 @category modules */
export type ModuleImport = Type<unknown> | DynamicModule;

/**
 * An entry of a module's `imports` as written: a module, or `forwardRef(() => OtherModule)`
 * when two module files import each other (the class is not defined yet where `@Module` runs).
 *
 * @since 0.1.0
 * @category modules
 */
export type ModuleImportLike = ModuleImport | ForwardReference<ModuleImport>;

/**
 * What a module declares: the modules it imports, its controllers, its providers, and the
 * providers (tokens, or the provider objects themselves) or imported modules it exports to
 * the modules that import it.
 *
 * @since 0.1.0
 * @category modules
 */
export interface ModuleOptions {
  readonly imports?: ReadonlyArray<ModuleImportLike>;
  readonly controllers?: ReadonlyArray<Type<unknown>>;
  readonly providers?: ReadonlyArray<ProviderLike>;
  readonly exports?: ReadonlyArray<InjectionToken | ModuleImport | Provider<unknown>>;
}

/**
 * Declares a module.
 *
 * @since 0.1.0
 * @category decorators
 */
export const StrataModule =
  (options: ModuleOptions = {}): ClassDecorator =>
  (target) => {
    writeMetadata(MetadataKey.module, options, target);
  };

/** Declares a module (NestJS's `@Module`). @since 0.1.0 @category decorators */
export const Module = StrataModule;
