import { randomUUID } from "node:crypto";
import type { Scope } from "./Scope.js";
import { type CustomDecorator, SetMetadata } from "./SetMetadata.js";
import type { InjectionToken } from "./Token.js";

/**
 * A provider or a controller as {@link DiscoveryService} lists it (NestJS's `InstanceWrapper`):
 * its token, its class (`metatype`: the class, or the factory of a `useFactory` provider;
 * `undefined` for a value), its instance (a singleton's; `undefined` for request-scoped and
 * transient providers, made per request or per injection), its scope and its module's class.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export interface DiscoveredProvider {
  readonly token: InjectionToken;
  readonly name: string;
  readonly metatype: Function | undefined;
  readonly instance: unknown;
  readonly scope: Scope;
  readonly host: Function;
}

/** What {@link DiscoveryService} reads of the app (given by the injector). */
export interface DiscoverySource {
  /** The app's providers, every module's. */
  readonly providers: () => ReadonlyArray<DiscoveredProvider>;
  /** The app's controllers, every module's. */
  readonly controllers: () => ReadonlyArray<DiscoveredProvider>;
}

/**
 * Which providers {@link DiscoveryService} lists: those whose class carries `metadataKey` (a
 * {@link DiscoveryService.createDecorator} decorator's `KEY`), those of the `include`d modules.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export interface DiscoveryOptions {
  readonly metadataKey?: string;
  readonly include?: ReadonlyArray<Function>;
}

/**
 * A decorator made by {@link DiscoveryService.createDecorator}: `@Webhook({ name })` records its
 * argument on a class or a method under `KEY`; `getProviders({ metadataKey: Webhook.KEY })`
 * finds the classes.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export type DiscoverableDecorator<T> = ((options?: T) => CustomDecorator) & {
  readonly KEY: string;
};

/**
 * NestJS's `DiscoveryService`: the app's providers and controllers, read from the compiled
 * module graph (no scan at run time). Every module can inject it (importing NestJS's
 * `DiscoveryModule` is accepted and changes nothing). Every provider is listed from the start;
 * a singleton's `instance` is there once it is built: read them in `onApplicationBootstrap` or
 * later (in `onModuleInit`, only the providers built before it have theirs).
 *
 * @since 0.1.0
 * @category dependency injection
 */
export class DiscoveryService {
  /** A decorator whose classes {@link DiscoveryService.getProviders} finds by its `KEY`. */
  static createDecorator<T>(): DiscoverableDecorator<T> {
    const key = `strata:discoverable:${randomUUID()}`;
    const decorator = (options?: T): CustomDecorator => SetMetadata(key, options ?? {});
    return Object.assign(decorator, { KEY: key });
  }

  /** @internal */
  constructor(private readonly source: DiscoverySource) {}

  /** Every provider (of the `include`d modules; carrying `metadataKey`), in dependency order. */
  getProviders(options: DiscoveryOptions = {}): Array<DiscoveredProvider> {
    return select(this.source.providers(), options);
  }

  /** Every controller (of the `include`d modules; carrying `metadataKey`). */
  getControllers(options: DiscoveryOptions = {}): Array<DiscoveredProvider> {
    return select(this.source.controllers(), options);
  }

  /**
   * What `decorator` recorded on the class of `wrapper`, or on its method `methodKey`
   * (`undefined` when it was not applied there).
   */
  getMetadataByDecorator<T>(
    decorator: DiscoverableDecorator<T>,
    wrapper: DiscoveredProvider,
    methodKey?: string | symbol,
  ): T | undefined {
    const cls = classOf(wrapper);
    if (cls === undefined) return undefined;
    const target =
      methodKey === undefined
        ? cls
        : (cls.prototype as Record<string | symbol, unknown>)[methodKey];
    if (typeof target !== "function") return undefined;
    return Reflect.getMetadata(decorator.KEY, target) as T | undefined;
  }
}

const classOf = (wrapper: DiscoveredProvider): Function | undefined =>
  wrapper.metatype?.prototype !== undefined
    ? wrapper.metatype
    : typeof wrapper.instance === "object" && wrapper.instance !== null
      ? wrapper.instance.constructor
      : undefined;

const select = (
  all: ReadonlyArray<DiscoveredProvider>,
  { metadataKey, include }: DiscoveryOptions,
): Array<DiscoveredProvider> =>
  all.filter((wrapper) => {
    if (include !== undefined && !include.includes(wrapper.host)) return false;
    if (metadataKey === undefined) return true;
    const cls = classOf(wrapper);
    return cls !== undefined && Reflect.getMetadata(metadataKey, cls) !== undefined;
  });
