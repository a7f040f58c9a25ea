import "./reflectMetadata.js";

/**
 * A decorator for a class or a method that records one metadata entry, with its key as `KEY`.
 *
 * @since 0.1.0
 * @category metadata
 */
export type CustomDecorator<TKey = string> = ClassDecorator &
  MethodDecorator & {
    readonly KEY: TKey;
  };

/**
 * Records `value` under `key` on the class it decorates, or on the method (the function itself,
 * which is what `context.getHandler()` returns), for a guard or an interceptor to read with
 * {@link Reflector}: `export const Public = () => SetMetadata(IS_PUBLIC_KEY, true)`.
 *
 * @since 0.1.0
 * @category metadata
 */
export const SetMetadata = <K = string, V = unknown>(key: K, value: V): CustomDecorator<K> => {
  const decorator = (
    target: object,
    _property?: string | symbol,
    descriptor?: PropertyDescriptor,
  ): void => {
    Reflect.defineMetadata(key, value, descriptor === undefined ? target : descriptor.value);
  };
  return Object.assign(decorator, { KEY: key }) as CustomDecorator<K>;
};
