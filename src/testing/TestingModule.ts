import type { ExpressAdapter } from "../app/ExpressAdapter.js";
import { appOptions, type NestApplicationOptions } from "../app/NestFactory.js";
import { StrataApp, type StrataAppOptions } from "../app/StrataApp.js";
import type { ModuleImport, ModuleOptions } from "../di/Module.js";
import type { ContextId, ModuleRefOptions } from "../di/ModuleRef.js";
import type { Provider } from "../di/Provider.js";
import type { InjectionToken, Type } from "../di/Token.js";

class TestRootModule {}

/**
 * A compiled testing module: its providers are built (singletons created, `onModuleInit` run).
 * The app it makes shares them: `moduleRef.get(X) === app.get(X)`, and hooks run once.
 *
 * @since 0.1.0
 * @category testing
 */
export class TestingModule {
  constructor(
    private readonly app: StrataApp,
    private readonly overrides: ReadonlyArray<Provider<unknown>>,
  ) {}

  /**
   * The instance registered under `token` (found in the test module first, then in any
   * imported module; `{ strict: true }`: the test module's only); `{ each: true }`: every
   * provider of `token`, one per module.
   */
  get<T>(
    token: InjectionToken<T> | Type<T>,
    options?: ModuleRefOptions & { readonly each?: false },
  ): T;
  get<T>(
    token: InjectionToken<T> | Type<T>,
    options: ModuleRefOptions & { readonly each: true },
  ): Array<T>;
  get<T>(token: InjectionToken<T> | Type<T>, options: ModuleRefOptions = {}): T | Array<T> {
    return options.each === true
      ? this.app.get(token, { ...options, each: true })
      : this.app.get(token, { ...options, each: false });
  }

  /**
   * A request-scoped or transient provider created for the context `contextId` (a new one
   * without it), a singleton as is: NestJS's `moduleRef.resolve`.
   */
  resolve<T>(
    token: InjectionToken<T> | Type<T>,
    contextId?: ContextId,
    options?: ModuleRefOptions & { readonly each?: false },
  ): Promise<T>;
  resolve<T>(
    token: InjectionToken<T> | Type<T>,
    contextId: ContextId | undefined,
    options: ModuleRefOptions & { readonly each: true },
  ): Promise<Array<T>>;
  resolve<T>(
    token: InjectionToken<T> | Type<T>,
    contextId?: ContextId,
    options: ModuleRefOptions = {},
  ): Promise<T | Array<T>> {
    return options.each === true
      ? this.app.resolve(token, contextId, { ...options, each: true })
      : this.app.resolve(token, contextId, { ...options, each: false });
  }

  /** What `REQUEST` injects into providers resolved in the context `contextId`. */
  registerRequestByContextId(request: unknown, contextId: ContextId): void {
    this.app.registerRequestByContextId(request, contextId);
  }

  /**
   * The app serving this module, with its providers (the same instances, not a second
   * container) and `options` added; configure it (`useGlobalPipes`...), then `init()` and
   * `request(app, ...)`, or `listen(0)`. With `providerOverrides` of its own, or once the
   * module's app is started (`init`/`listen`: a second app, as NestJS's tests make), it is a
   * separate app instead, whose providers (built again, hooks included) take those overrides
   * on top of the module's.
   */
  createStrataApp(options: StrataAppOptions = {}): StrataApp {
    if ((options.providerOverrides ?? []).length === 0 && this.app.configurable) {
      return this.app.addOptions(options);
    }
    return new StrataApp(this.app.rootModule, {
      ...options,
      providerOverrides: [...this.overrides, ...(options.providerOverrides ?? [])],
    });
  }

  /**
   * NestJS's name of {@link TestingModule.createStrataApp}; an `ExpressAdapter` first is
   * accepted for an Express app without routes or middleware of its own.
   */
  createNestApplication(
    adapterOrOptions?: ExpressAdapter | NestApplicationOptions,
    options?: NestApplicationOptions,
  ): StrataApp {
    return this.createStrataApp(
      appOptions("createNestApplication", adapterOrOptions, options) ?? {},
    );
  }

  /** NestJS's `init()`: builds what `compile()` left (the routes); the module is usable already. */
  async init(): Promise<this> {
    await this.app.init();
    return this;
  }

  /** Releases every provider (`onModuleDestroy`), its app's included: they are the same. */
  close(): Promise<void> {
    return this.app.close();
  }
}

/**
 * Builds a {@link TestingModule}, replacing providers by token.
 *
 * @since 0.1.0
 * @category testing
 */
export class TestingModuleBuilder {
  private readonly overrides = new Map<InjectionToken, Provider<unknown>>();
  private readonly moduleOverrides: Array<readonly [ModuleImport, ModuleImport]> = [];
  private mocker: ((token: InjectionToken) => unknown) | undefined;

  constructor(private readonly metadata: ModuleOptions) {}

  /** Replaces the provider of `token`, wherever a module declares it. */
  overrideProvider<T>(token: InjectionToken<T>): OverrideBy<T> {
    const set = (provider: Provider<T>): TestingModuleBuilder => {
      this.overrides.set(token, provider as Provider<unknown>);
      return this;
    };
    return {
      useValue: (value) => set({ token, useValue: value as T }),
      useClass: (useClass) => set({ token, useClass }),
      useFactory: ({ factory, inject }) => set({ token, useFactory: factory, inject }),
    };
  }

  /**
   * Replaces a module (a class, or the very dynamic module object imported) wherever it is
   * imported: `.overrideModule(UsersModule).useModule(FakeUsersModule)`.
   */
  overrideModule(module: ModuleImport): {
    /** The module imported in place of the overridden one. */
    useModule(other: ModuleImport): TestingModuleBuilder;
  } {
    return {
      useModule: (other) => {
        this.moduleOverrides.push([module, other]);
        return this;
      },
    };
  }

  /**
   * Makes every dependency that no module provides with `mocker(token)` (NestJS's auto-mocking:
   * `.useMocker(createMock)`); when it returns `undefined`, the dependency stays missing and the
   * start fails naming it.
   */
  useMocker(mocker: (token: InjectionToken) => unknown): TestingModuleBuilder {
    this.mocker = mocker;
    return this;
  }

  /** Compiles the module graph and builds its providers. */
  async compile(): Promise<TestingModule> {
    const overrides = [...this.overrides.values()];
    const app = new StrataApp(
      { module: TestRootModule, ...this.metadata },
      {
        providerOverrides: overrides,
        moduleOverrides: this.moduleOverrides,
        ...(this.mocker === undefined ? {} : { mocker: this.mocker }),
      },
    );
    await app.initProviders();
    return new TestingModule(app, overrides);
  }
}

/** The replacements {@link TestingModuleBuilder.overrideProvider} accepts. @since 0.1.0 @category testing */
export interface OverrideBy<T> {
  /** A test double: only the members the test exercises are needed. */
  useValue(value: T | Partial<T>): TestingModuleBuilder;
  /** A class the module instantiates (with its own dependencies) in place of the provider. */
  useClass(cls: Type<T>): TestingModuleBuilder;
  /** A factory, with the tokens it injects, in place of the provider. */
  useFactory(options: {
    readonly factory: NonNullable<Provider<T>["useFactory"]>;
    readonly inject?: ReadonlyArray<InjectionToken>;
  }): TestingModuleBuilder;
}

/**
 * Entry point of the classic testing API.
 *
 * @example
 * declare class UsersService { // a provider of the app
 *   find(id: string): Promise<{ id: string; name: string }>;
 * }
 * declare class UsersController {} // @Controller("users"), injects UsersService
 *
 * const module = await Test.createTestingModule({ controllers: [UsersController], providers: [UsersService] })
 *   .overrideProvider(UsersService).useValue({ find: async (id: string) => ({ id, name: "Ada" }) })
 *   .compile();
 *
 * @since 0.1.0
 * @category testing
 */
export class Test {
  /** Starts a testing module from module metadata (`imports`, `controllers`, `providers`, `exports`). */
  static createTestingModule(metadata: ModuleOptions): TestingModuleBuilder {
    return new TestingModuleBuilder(metadata);
  }
}
