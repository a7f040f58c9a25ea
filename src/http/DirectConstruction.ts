/**
 * Building a `Schema.TaggedError` without its constructor's copy of its fields, for the HTTP
 * errors built on every failed request (`HttpError` and its subclasses), and the startup check
 * that it builds exactly what the constructor builds.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data";
import * as Schema from "effect/Schema";

/**
 * Builds an error of the Schema class `target` from its fields, `_tag` included: what its
 * constructor does when told not to validate, less its preparation of the fields (a copy, the
 * `_tag` merged in), which costs ~2 us, most of a stackless error. A `Schema.TaggedError` class
 * extends `Data.Error`, run here on `target`. Used only when {@link directIsExact}.
 */
export const direct = (target: Function, props: object): never =>
  Reflect.construct(Data.Error, [props], target) as never;

/** The same own properties (the stack aside), each the same value or a copy of the same object. */
const sameOwn = (a: object, b: object): boolean => {
  const keys = Reflect.ownKeys(a);
  const other = Reflect.ownKeys(b);
  if (keys.length !== other.length || keys.some((key, i) => key !== other[i])) return false;
  return keys.every((key) => {
    if (key === "stack") return true;
    const [x, y] = [Reflect.get(a, key), Reflect.get(b, key)];
    if (x === y) return true;
    return typeof x === "object" && typeof y === "object" && x !== null && y !== null
      ? sameOwn(x, y)
      : false;
  });
};

/**
 * `true` when {@link direct} builds what a `Schema.TaggedError` constructor builds, checked once
 * on a probe class; with another `effect` whose constructor does more, the constructor runs.
 * Exported for its test.
 *
 * @internal
 */
export const directIsExact: boolean = (() => {
  class Probe extends Schema.TaggedError<Probe>()("Probe", {
    statusCode: Schema.Number,
    message: Schema.String,
    errors: Schema.optional(Schema.Array(Schema.String)),
  }) {}
  const viaConstructor = new Probe({ statusCode: 400, message: "m", errors: ["e"] }, true);
  const viaDirect: Probe = direct(Probe, {
    statusCode: 400,
    message: "m",
    errors: ["e"],
    _tag: "Probe",
  });
  return (
    Object.getPrototypeOf(viaDirect) === Probe.prototype &&
    viaDirect instanceof Error &&
    sameOwn(viaConstructor, viaDirect)
  );
})();
