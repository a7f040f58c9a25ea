import type { ForwardReference } from "./forwardRef.js";
import { MetadataKey, readMetadata, writeMetadata } from "./metadata.js";
import type { InjectionToken } from "./Token.js";

/** What `@Inject` accepts: a token, or `forwardRef(() => Class)` for one defined later. */
export type InjectTarget = InjectionToken | ForwardReference<InjectionToken>;

/** A property injected after construction (`@Inject(token) readonly logger: Logger`). */
export interface InjectedProperty {
  readonly key: string | symbol;
  readonly token: InjectTarget | undefined;
}

/**
 * Injects the provider registered under `token` into a constructor parameter, or into a
 * property once the instance is constructed. Without a token, the parameter's (property's)
 * emitted type is used (as if there were no decorator). An explicit token always wins over the
 * emitted type; it is required for strings, symbols, interfaces, and when the code was compiled
 * without `emitDecoratorMetadata`. `forwardRef(() => Class)` names a class that is not defined
 * yet where the decorator runs (two files importing each other).
 *
 * @since 0.1.0
 * @category decorators
 */
export const Inject =
  (token?: InjectTarget): ParameterDecorator & PropertyDecorator =>
  (target: object, property: string | symbol | undefined, index?: number) => {
    if (index === undefined) {
      if (property === undefined) throw new Error("@Inject() decorates a parameter or a property");
      // A property: the decorator gets the prototype; the record lives on the class.
      const cls = (target as { constructor: Function }).constructor;
      const type = readMetadata<InjectionToken>("design:type", target, property);
      const existing = readMetadata<ReadonlyArray<InjectedProperty>>(
        MetadataKey.injectProperties,
        cls,
      );
      const entry: InjectedProperty = { key: property, token: token ?? type };
      writeMetadata(
        MetadataKey.injectProperties,
        [...(existing ?? []).filter((p) => p.key !== property), entry],
        cls,
      );
      return;
    }
    if (property !== undefined) {
      throw new Error(
        `@Inject() is only supported on constructor parameters and properties (found on a parameter of method ${String(property)})`,
      );
    }
    const resolved =
      token ?? readMetadata<ReadonlyArray<InjectionToken>>(MetadataKey.paramTypes, target)?.[index];
    const existing = readMetadata<ReadonlyMap<number, InjectTarget>>(MetadataKey.inject, target);
    const next = new Map(existing);
    if (resolved !== undefined) next.set(index, resolved);
    writeMetadata(MetadataKey.inject, next, target);
  };
