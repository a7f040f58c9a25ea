import "./reflectMetadata.js";

/**
 * The metadata keys Strata's decorators write. Decorators only record; the compiler reads.
 * Reads go through `Reflect.getMetadata`, so subclasses inherit their parents' metadata.
 */
export const MetadataKey = {
  injectable: "strata:injectable",
  inject: "strata:inject",
  injectProperties: "strata:inject-properties",
  optional: "strata:optional",
  optionalProperties: "strata:optional-properties",
  global: "strata:global",
  module: "strata:module",
  controller: "strata:controller",
  routes: "strata:routes",
  params: "strata:params",
  httpCode: "strata:http-code",
  headers: "strata:headers",
  redirect: "strata:redirect",
  guards: "strata:guards",
  pipes: "strata:pipes",
  interceptors: "strata:interceptors",
  filters: "strata:filters",
  catch: "strata:catch",
  version: "strata:version",
  paramTypes: "design:paramtypes",
} as const;

/** Reads metadata `key` of `target` (own or inherited, optionally on a property). */
export const readMetadata = <T>(
  key: string,
  target: object,
  property?: string | symbol,
): T | undefined =>
  property === undefined
    ? (Reflect.getMetadata(key, target) as T | undefined)
    : (Reflect.getMetadata(key, target, property) as T | undefined);

/** Writes metadata `key` of `target` (optionally on a property). */
export const writeMetadata = (
  key: string,
  value: unknown,
  target: object,
  property?: string | symbol,
): void => {
  if (property === undefined) Reflect.defineMetadata(key, value, target);
  else Reflect.defineMetadata(key, value, target, property);
};

/** Appends to a list held in metadata without mutating an inherited list. */
export const appendMetadata = <T>(
  key: string,
  item: T,
  target: object,
  property?: string | symbol,
): void => {
  const own =
    property === undefined
      ? (Reflect.getOwnMetadata(key, target) as ReadonlyArray<T> | undefined)
      : (Reflect.getOwnMetadata(key, target, property) as ReadonlyArray<T> | undefined);
  const inherited = own ?? readMetadata<ReadonlyArray<T>>(key, target, property) ?? [];
  writeMetadata(key, [...inherited, item], target, property);
};
