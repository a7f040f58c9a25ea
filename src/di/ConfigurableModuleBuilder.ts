import { randomUUID } from "node:crypto";
import type { DynamicModule, ModuleImportLike } from "./Module.js";
import type { OptionalFactoryDependency, Provider } from "./Provider.js";
import type { InjectionToken, Type } from "./Token.js";

/**
 * What the generated `forRootAsync` (`<method>Async`) takes: the options made by `useFactory`
 * (its `inject` tokens' instances as arguments), by the `<factory method>()` of a `useClass`
 * instance, or of the `useExisting` provider; `imports` are modules those need.
 *
 * @since 0.1.0
 * @category modules
 */
export interface ConfigurableModuleAsyncOptions<Options, FactoryMethod extends string = "create"> {
  readonly imports?: ReadonlyArray<ModuleImportLike>;
  /** Makes the options from the `inject` tokens' values. */
  readonly useFactory?: (...args: never[]) => Options | Promise<Options>;
  readonly inject?: ReadonlyArray<InjectionToken | OptionalFactoryDependency>;
  readonly useClass?: Type<ConfigurableModuleOptionsFactory<Options, FactoryMethod>>;
  readonly useExisting?: InjectionToken<ConfigurableModuleOptionsFactory<Options, FactoryMethod>>;
  /** Providers added to the module (for the tokens `useFactory` injects). */
  readonly provideInjectionTokensFrom?: ReadonlyArray<Provider<unknown>>;
}

/**
 * A class making a configurable module's options, for `forRootAsync({ useClass })`: its
 * factory method (`create` unless `setFactoryMethodName` changed it) returns them.
 *
 * @since 0.1.0
 * @category modules
 */
export type ConfigurableModuleOptionsFactory<Options, FactoryMethod extends string> = Record<
  FactoryMethod,
  () => Options | Promise<Options>
>;

/**
 * The class {@link ConfigurableModuleBuilder.build} generates, for the module to extend: its
 * static `<method>(options)` and `<method>Async(asyncOptions)` return the module as a
 * {@link DynamicModule} providing the options under `MODULE_OPTIONS_TOKEN`.
 *
 * @since 0.1.0
 * @category modules
 */
export type ConfigurableModuleCls<
  Options,
  Method extends string = "register",
  FactoryMethod extends string = "create",
  Extras = Record<never, never>,
> = (new () => object) &
  Record<Method, (options: Options & Partial<Extras>) => DynamicModule> &
  Record<
    `${Method}Async`,
    (
      options: ConfigurableModuleAsyncOptions<Options, FactoryMethod> & Partial<Extras>,
    ) => DynamicModule
  >;

/**
 * What {@link ConfigurableModuleBuilder.build} returns: the class to extend and the token its
 * options are provided under (`@Inject(MODULE_OPTIONS_TOKEN)`). `OPTIONS_TYPE` and
 * `ASYNC_OPTIONS_TYPE` are for `typeof` only (their value is `undefined`).
 *
 * @since 0.1.0
 * @category modules
 */
export interface ConfigurableModuleHost<
  Options,
  Method extends string,
  FactoryMethod extends string,
  Extras,
> {
  readonly ConfigurableModuleClass: ConfigurableModuleCls<Options, Method, FactoryMethod, Extras>;
  readonly MODULE_OPTIONS_TOKEN: string;
  readonly OPTIONS_TYPE: Options & Partial<Extras>;
  readonly ASYNC_OPTIONS_TYPE: ConfigurableModuleAsyncOptions<Options, FactoryMethod> &
    Partial<Extras>;
}

/** Options of a {@link ConfigurableModuleBuilder}: the module's name (for the token) or the token. */
export interface ConfigurableModuleBuilderOptions {
  readonly moduleName?: string;
  readonly optionsInjectionToken?: string;
}

type Transform<Extras> = (definition: DynamicModule, extras: Extras) => DynamicModule;

interface Settings<Extras> {
  readonly method: string;
  readonly factoryMethod: string;
  readonly extras: Extras | undefined;
  readonly transform: Transform<Extras>;
}

/**
 * NestJS's `ConfigurableModuleBuilder`: generates a module class whose static `forRoot`
 * (`register` unless `setClassMethodName` says otherwise) and `forRootAsync` return a
 * {@link DynamicModule} providing the options under `MODULE_OPTIONS_TOKEN`. `setExtras`
 * declares options that shape the definition (`isGlobal` → `global`) instead of being provided.
 * Only module definitions are generated: the module graph compiles them as any other.
 *
 * @since 0.1.0
 * @category modules
 */
export class ConfigurableModuleBuilder<
  Options,
  Method extends string = "register",
  FactoryMethod extends string = "create",
  Extras = Record<never, never>,
> {
  private readonly settings: Settings<Extras>;

  constructor(
    private readonly options: ConfigurableModuleBuilderOptions = {},
    settings?: Settings<Extras>,
  ) {
    this.settings = settings ?? {
      method: "register",
      factoryMethod: "create",
      extras: undefined,
      transform: (definition) => definition,
    };
  }

  /** Names the static method (`forRoot`); its async variant is `<name>Async`. */
  setClassMethodName<M extends string>(
    name: M,
  ): ConfigurableModuleBuilder<Options, M, FactoryMethod, Extras> {
    return new ConfigurableModuleBuilder(this.options, { ...this.settings, method: name });
  }

  /** Names the method a `useClass`/`useExisting` options factory is called through (default `create`). */
  setFactoryMethodName<F extends string>(
    name: F,
  ): ConfigurableModuleBuilder<Options, Method, F, Extras> {
    return new ConfigurableModuleBuilder(this.options, { ...this.settings, factoryMethod: name });
  }

  /**
   * Options that are not provided but change the definition: `extras` are their defaults,
   * `transform` applies them (`(definition, { isGlobal }) => ({ ...definition, global: isGlobal })`).
   */
  setExtras<E>(
    extras: E,
    transform: Transform<E> = (definition) => definition,
  ): ConfigurableModuleBuilder<Options, Method, FactoryMethod, E> {
    return new ConfigurableModuleBuilder<Options, Method, FactoryMethod, E>(this.options, {
      method: this.settings.method,
      factoryMethod: this.settings.factoryMethod,
      extras,
      transform,
    });
  }

  /** The module class to extend and the token of its options. */
  build(): ConfigurableModuleHost<Options, Method, FactoryMethod, Extras> {
    const token =
      this.options.optionsInjectionToken ??
      (this.options.moduleName === undefined
        ? `CONFIGURABLE_MODULE_OPTIONS[${randomUUID()}]`
        : `${this.options.moduleName.toUpperCase()}_MODULE_OPTIONS`);
    const { method, factoryMethod, extras, transform } = this.settings;
    const extraKeys = Object.keys(extras ?? {});
    const finish = (definition: DynamicModule, given: object): DynamicModule => {
      if (extras === undefined) return definition;
      const chosen = { ...extras } as Record<string, unknown>;
      for (const key of extraKeys) {
        const value = (given as Record<string, unknown>)[key];
        if (value !== undefined) chosen[key] = value;
      }
      return transform(definition, chosen as Extras);
    };
    const withoutExtras = (options: object): object =>
      Object.fromEntries(Object.entries(options).filter(([key]) => !extraKeys.includes(key)));
    const optionsProvider = (
      async: ConfigurableModuleAsyncOptions<Options, string>,
    ): Provider<unknown> => {
      if (async.useFactory !== undefined) {
        return { provide: token, useFactory: async.useFactory, inject: async.inject ?? [] };
      }
      const source = async.useExisting ?? async.useClass;
      if (source === undefined) {
        throw new Error(
          `${method}Async() needs one of useFactory, useClass or useExisting to make the options.`,
        );
      }
      return {
        provide: token,
        useFactory: (factory: Record<string, () => unknown>) => factory[factoryMethod](),
        inject: [source],
      };
    };
    class ConfigurableModuleClass {
      static [method](this: Type<unknown>, options: Options & Partial<Extras>): DynamicModule {
        return finish(
          {
            // biome-ignore lint/complexity/noThisInStatic: `this` is the module class extending it
            module: this,
            providers: [{ provide: token, useValue: withoutExtras(options as object) }],
          },
          options as object,
        );
      }

      static [`${method}Async`](
        this: Type<unknown>,
        options: ConfigurableModuleAsyncOptions<Options, string> & Partial<Extras>,
      ): DynamicModule {
        const providers: Array<Provider<unknown>> = [optionsProvider(options)];
        if (options.useClass !== undefined && options.useExisting === undefined) {
          providers.push({ provide: options.useClass, useClass: options.useClass });
        }
        providers.push(...(options.provideInjectionTokensFrom ?? []));
        return finish(
          // biome-ignore lint/complexity/noThisInStatic: `this` is the module class extending it
          { module: this, imports: [...(options.imports ?? [])], providers },
          options as object,
        );
      }
    }
    return {
      ConfigurableModuleClass: ConfigurableModuleClass as unknown as ConfigurableModuleCls<
        Options,
        Method,
        FactoryMethod,
        Extras
      >,
      MODULE_OPTIONS_TOKEN: token,
      OPTIONS_TYPE: undefined as unknown as Options & Partial<Extras>,
      ASYNC_OPTIONS_TYPE: undefined as unknown as ConfigurableModuleAsyncOptions<
        Options,
        FactoryMethod
      > &
        Partial<Extras>,
    };
  }
}
