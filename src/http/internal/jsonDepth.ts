/**
 * The JSON depth limit's inside: its default, the Effect face's limit as a FiberRef (set with
 * `JsonDepth.withJsonDepthLimit`), and the check of a parsed body against it.
 */
import * as FiberRef from "effect/FiberRef";

/**
 * The default deepest nesting of a JSON request body: 1000 arrays or objects, one inside the
 * other. Deeper bodies are refused (400) before anything walks them: class-transformer, Schema
 * decoding of a recursive Schema and `JSON.stringify` recurse, and a body of a few kB nested some
 * thousand levels deep would otherwise drive them past the stack.
 *
 * @since 0.1.0
 * @category body
 */
export const DEFAULT_JSON_DEPTH_LIMIT = 1000;

/**
 * The JSON depth limit of the Effect face's `request.json` (`HttpApi` payloads,
 * `HttpServerRequest.schemaBodyJson`) and of `Validation.body` without a `depthLimit` of its own:
 * {@link DEFAULT_JSON_DEPTH_LIMIT} unless set with `JsonDepth.withJsonDepthLimit`.
 *
 */
export const currentJsonDepthLimit: FiberRef.FiberRef<number> =
  FiberRef.unsafeMake(DEFAULT_JSON_DEPTH_LIMIT);

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `limit` (the value itself
 * being level 1), found by a walk with a stack of its own: no nesting reaches the call stack
 * (`JSON.parse` does not recurse either). Run it on a body before anything else walks it; a
 * text of at most `limit` characters cannot be too deep and needs no walk.
 */
export const exceedsJsonDepth = (root: unknown, limit: number): boolean => {
  if (root === null || typeof root !== "object") return false;
  const values: Array<object> = [root];
  const depths: Array<number> = [1];
  while (values.length > 0) {
    const value = values.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item !== null && typeof item === "object") {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      // A parsed value has no inherited enumerable keys: `for...in` sees its own, unallocated.
      for (const key in value) {
        const item = value[key];
        if (item !== null && typeof item === "object") {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
};

/**
 * Whether `value`, parsed from the JSON `text`, nests deeper than `limit`: a text of at most
 * `limit` characters cannot, so only a longer one is walked ({@link exceedsJsonDepth}).
 */
export const parsedJsonExceedsDepth = (text: string, value: unknown, limit: number): boolean =>
  text.length > limit && exceedsJsonDepth(value, limit);
