import { appendToList, type ClassOrMethodDecorator } from "./ClassOrMethodDecorator.js";

/** What a `@Use...()` decorator takes, for its checks and its messages. */
export interface EnhancerKind {
  /** The decorator's name, e.g. `UseInterceptors`. */
  readonly decorator: string;
  /** What it takes, e.g. `an interceptor`. */
  readonly noun: string;
  /** The method an instance must have, e.g. `intercept`. */
  readonly method: string;
  readonly key: Parameters<typeof appendToList>[0];
}

const describe = (item: unknown): string =>
  item === null || item === undefined
    ? String(item)
    : typeof item === "object"
      ? "an object"
      : `the ${typeof item} ${String(item)}`;

/**
 * A `@Use...()` decorator appending `items` to the list of `kind`, after checking each one at
 * decoration time (so at startup): a class, or an object with the kind's method. Anything else,
 * `undefined` above all (an import cycle, a missing export), throws an error naming the class,
 * the method and the argument's position, instead of an app that starts and answers 500.
 */
export const enhancerList = (
  kind: EnhancerKind,
  items: ReadonlyArray<unknown>,
): ClassOrMethodDecorator => {
  const append = appendToList(kind.key, items) as (
    target: object,
    property: string | symbol | undefined,
  ) => void;
  return ((target: object, property?: string | symbol) => {
    items.forEach((item, index) => {
      if (typeof item === "function") return;
      if (
        typeof item === "object" &&
        item !== null &&
        typeof (item as Record<string, unknown>)[kind.method] === "function"
      )
        return;
      const where =
        property === undefined
          ? (target as Function).name
          : `${target.constructor.name}.${String(property)}`;
      throw new TypeError(
        `@${kind.decorator}() on ${where}: argument #${index} is ${describe(item)}, not ${kind.noun} (a class, or an object with ${kind.method}()).${item === undefined ? " An undefined argument usually comes from an import cycle or a missing export." : ""}`,
      );
    });
    append(target, property);
  }) as ClassOrMethodDecorator;
};
