import type * as Scope from "effect/Scope";
import type { ProviderNode } from "./ModuleGraph.js";

/**
 * The request-scoped instances of one HTTP request (or one `Container` request id): created
 * on first use, released when `scope` closes.
 */
export interface RequestStore {
  readonly instances: Map<number, unknown>;
  readonly scope: Scope.Scope;
  /** Instances built synchronously whose lifecycle hooks have yet to run (rare: hooks). */
  due: Array<readonly [ProviderNode, unknown]> | undefined;
}

/** A fresh store whose instances are released with `scope`. */
export const makeRequestStore = (scope: Scope.Scope): RequestStore => ({
  instances: new Map(),
  scope,
  due: undefined,
});
