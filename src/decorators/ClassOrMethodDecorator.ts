import { MetadataKey, readMetadata, writeMetadata } from "../di/metadata.js";

/**
 * A decorator for a controller class (applies to all its routes) or one handler method.
 *
 * @since 0.1.0
 * @category decorators
 */
export type ClassOrMethodDecorator = ClassDecorator & MethodDecorator;

/** A metadata key: one of {@link MetadataKey}, or another layer's own (the OpenAPI decorators'). */
type MetadataKeyName = (typeof MetadataKey)[keyof typeof MetadataKey] | `strata:${string}`;

/**
 * A decorator appending `items` to the list under `key`, on the class or on the method it
 * decorates. Repeating it appends; a subclass extends its parent's list without changing it.
 */
export const appendToList = (
  key: MetadataKeyName,
  items: ReadonlyArray<unknown>,
): ClassOrMethodDecorator =>
  ((target: object, property?: string | symbol) => {
    const own =
      property === undefined
        ? (Reflect.getOwnMetadata(key, target) as ReadonlyArray<unknown> | undefined)
        : (Reflect.getOwnMetadata(key, target, property) as ReadonlyArray<unknown> | undefined);
    const inherited = own ?? readMetadata<ReadonlyArray<unknown>>(key, target, property) ?? [];
    writeMetadata(key, [...inherited, ...items], target, property);
  }) as ClassOrMethodDecorator;

/** A decorator setting `value` under `key`, on the class or on the method it decorates. */
export const setValue = (key: MetadataKeyName, value: unknown): ClassOrMethodDecorator =>
  ((target: object, property?: string | symbol) => {
    writeMetadata(key, value, target, property);
  }) as ClassOrMethodDecorator;

/** The list under `key` of a controller (`handler` undefined) or of one of its handlers. */
export const readList = <T>(
  key: MetadataKeyName,
  cls: Function,
  handler?: string | symbol,
): ReadonlyArray<T> =>
  (handler === undefined
    ? readMetadata<ReadonlyArray<T>>(key, cls)
    : readMetadata<ReadonlyArray<T>>(key, cls.prototype as object, handler)) ?? [];
