import type { InjectionToken } from "../di/Token.js";
import { MetadataKey, readMetadata, writeMetadata } from "./metadata.js";

/**
 * Injects the provider registered under `token` into a constructor parameter. Without a
 * token, the parameter's emitted type is used (as if there were no decorator). An explicit
 * token always wins over the emitted type; it is required for strings, symbols, interfaces,
 * and when the code was compiled without `emitDecoratorMetadata`.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Inject =
  (token?: InjectionToken): ParameterDecorator =>
  (target, property, index) => {
    if (property !== undefined) {
      throw new Error(
        `@Inject() is only supported on constructor parameters (found on method ${String(property)})`,
      );
    }
    const resolved =
      token ?? readMetadata<ReadonlyArray<InjectionToken>>(MetadataKey.paramTypes, target)?.[index];
    const existing = readMetadata<ReadonlyMap<number, InjectionToken>>(MetadataKey.inject, target);
    const next = new Map(existing);
    if (resolved !== undefined) next.set(index, resolved);
    writeMetadata(MetadataKey.inject, next, target);
  };
