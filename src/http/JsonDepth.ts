/**
 * The deepest nesting a JSON request body may have, checked right after parsing and before
 * anything recursive walks the value (SECURITY.md 44): the default, the Effect face's limit as a
 * FiberRef, and the check itself.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import * as FiberRef from "effect/FiberRef";
import { dual } from "effect/Function";

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
 * {@link DEFAULT_JSON_DEPTH_LIMIT} unless set with {@link withJsonDepthLimit}.
 *
 * @since 0.1.0
 * @category body
 */
export const currentJsonDepthLimit: FiberRef.FiberRef<number> =
  FiberRef.unsafeMake(DEFAULT_JSON_DEPTH_LIMIT);

/**
 * Runs `effect` (a route, a router, a whole app) with another JSON depth limit for the bodies
 * it reads, as `HttpServerRequest.withMaxBodySize` sets their size limit.
 *
 * @since 0.1.0
 * @category body
 */
export const withJsonDepthLimit: {
  (limit: number): <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>;
  <A, E, R>(effect: Effect.Effect<A, E, R>, limit: number): Effect.Effect<A, E, R>;
} = dual(
  2,
  <A, E, R>(effect: Effect.Effect<A, E, R>, limit: number): Effect.Effect<A, E, R> =>
    Effect.locally(effect, currentJsonDepthLimit, limit),
);

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `limit` (the value itself
 * being level 1), found by a walk with a stack of its own: no nesting reaches the call stack
 * (`JSON.parse` does not recurse either). Run it on a body before anything else walks it; a
 * text of at most `limit` characters cannot be too deep and needs no walk.
 *
 * @since 0.1.0
 * @category body
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
 *
 * @since 0.1.0
 * @category body
 */
export const parsedJsonExceedsDepth = (text: string, value: unknown, limit: number): boolean =>
  text.length > limit && exceedsJsonDepth(value, limit);
