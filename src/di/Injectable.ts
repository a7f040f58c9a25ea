import { MetadataKey, writeMetadata } from "./metadata.js";
import { Scope } from "./Scope.js";

/** Options of {@link Injectable}. @since 0.1.0 @category decorators */
export interface InjectableOptions {
  readonly scope?: Scope | "singleton" | "transient" | "request";
  /**
   * A request-scoped provider kept per tenant rather than per request, once a
   * `ContextIdFactory.apply(strategy)` says which requests share it (NestJS's durable providers).
   */
  readonly durable?: boolean;
}

/** The recorded `@Injectable` options of a class. */
export interface InjectableMetadata {
  readonly scope: Scope;
  readonly durable?: boolean;
}

/**
 * Marks a class as a provider, keyed by the class itself. Its constructor parameters are
 * injected by type (`emitDecoratorMetadata`) or by `@Inject(token)`.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Injectable =
  (options: InjectableOptions = {}): ClassDecorator =>
  (target) => {
    const metadata: InjectableMetadata = {
      scope: (options.scope as Scope | undefined) ?? Scope.SINGLETON,
      ...(options.durable === true ? { durable: true } : {}),
    };
    writeMetadata(MetadataKey.injectable, metadata, target);
  };

/** Options of {@link Service}: {@link InjectableOptions} plus the repository it fronts. @since 0.1.0 @category decorators */
export interface ServiceOptions extends InjectableOptions {
  /** The entity or repository name this service manages, kept as metadata for tooling. */
  readonly repository?: string;
}

/** Key under which `@Service` keeps its repository metadata. @since 0.1.0 @category decorators */
export const SERVICE_REPOSITORY_METADATA = "strata:service-repository";

/**
 * Alias of {@link Injectable} that may also record repository metadata.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Service =
  (options: ServiceOptions = {}): ClassDecorator =>
  (target) => {
    Injectable(options)(target);
    if (options.repository !== undefined)
      writeMetadata(SERVICE_REPOSITORY_METADATA, options.repository, target);
  };
