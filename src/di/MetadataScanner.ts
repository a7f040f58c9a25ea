/**
 * NestJS's `MetadataScanner`: the method names of a prototype chain, for a
 * {@link DiscoveryService} user reading method decorators. Every module can inject it.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export class MetadataScanner {
  /** The names of the methods of `prototype` and its parents (not getters, setters or the constructor). */
  getAllMethodNames(prototype: object | null): Array<string> {
    const names = new Set<string>();
    for (
      let current = prototype;
      current !== null && current !== Object.prototype;
      current = Object.getPrototypeOf(current) as object | null
    ) {
      for (const name of Object.getOwnPropertyNames(current)) {
        if (name === "constructor") continue;
        const descriptor = Object.getOwnPropertyDescriptor(current, name);
        if (
          descriptor?.get === undefined &&
          descriptor?.set === undefined &&
          typeof descriptor?.value === "function"
        ) {
          names.add(name);
        }
      }
    }
    return [...names];
  }
}
