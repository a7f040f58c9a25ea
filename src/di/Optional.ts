import { MetadataKey, readMetadata, writeMetadata } from "./metadata.js";

/**
 * Marks a constructor parameter (or an `@Inject()` property) as optional: when no provider of
 * its token is visible, `undefined` is injected instead of failing the start.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Optional =
  (): ParameterDecorator & PropertyDecorator =>
  (target: object, property: string | symbol | undefined, index?: number) => {
    if (index === undefined) {
      // A property: recorded on the class, as `@Inject()` records properties.
      const cls = (target as { constructor: Function }).constructor;
      const keys = readMetadata<ReadonlyArray<string | symbol>>(
        MetadataKey.optionalProperties,
        cls,
      );
      writeMetadata(MetadataKey.optionalProperties, [...(keys ?? []), property], cls);
      return;
    }
    if (property !== undefined) {
      throw new Error(
        `@Optional() is only supported on constructor parameters and properties (found on a parameter of method ${String(property)})`,
      );
    }
    const indexes = readMetadata<ReadonlyArray<number>>(MetadataKey.optional, target);
    writeMetadata(MetadataKey.optional, [...(indexes ?? []), index], target);
  };
