import { sanitizeString } from "./sanitizeString.js";

/** Keys that reach or replace an object's prototype when assigned. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Deeper than this, values are dropped (a bound on hostile nesting). */
const MAX_DEPTH = 64;

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

const clean = (value: unknown, depth: number, ancestors: WeakSet<object>): unknown => {
  if (typeof value === "string") return sanitizeString(value);
  if (typeof value !== "object" || value === null) {
    return typeof value === "function" || typeof value === "symbol" ? undefined : value;
  }
  if (depth > MAX_DEPTH || ancestors.has(value)) return undefined;
  if (Array.isArray(value)) {
    ancestors.add(value);
    const items = value.map((item) => clean(item, depth + 1, ancestors) ?? null);
    ancestors.delete(value);
    return items;
  }
  if (!isPlainObject(value)) return value;
  ancestors.add(value);
  const result = copy(value, depth, ancestors);
  ancestors.delete(value);
  return result;
};

const copy = (
  input: Record<string, unknown>,
  depth: number,
  ancestors: WeakSet<object>,
): Record<string, unknown> => {
  const output: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    const cleaned = clean(input[key], depth + 1, ancestors);
    if (cleaned !== undefined) output[key] = cleaned;
  }
  return output;
};

/**
 * A deep copy of a plain object (a parsed JSON body, say) that cannot pollute prototypes:
 * `__proto__`, `constructor` and `prototype` keys are dropped at every depth, and the copy is
 * built from fresh plain objects and arrays. String values go through {@link sanitizeString};
 * numbers, booleans and `null` are kept; functions, symbols and `undefined` are dropped (in
 * arrays they become `null`, as in JSON); other objects (a `Date`, a `Buffer`) are kept as
 * they are. Circular references and anything nested deeper than 64 levels are dropped. Keys
 * themselves are kept as given.
 *
 * @since 0.1.0
 * @category sanitize
 */
export const sanitizeObject = (input: Record<string, unknown>): Record<string, unknown> =>
  copy(input, 0, new WeakSet([input]));
