import type * as Scope from "effect/Scope";
import type { ProviderNode } from "./ModuleGraph.js";

/**
 * The request-scoped instances of one HTTP request (or one `Container` request id): created
 * on first use, released when `scope` closes. `request` is what the `REQUEST` token injects
 * (`undefined` outside an HTTP request).
 */
export interface RequestStore {
  readonly instances: Map<number, unknown>;
  readonly scope: Scope.Scope;
  readonly request: unknown;
  /** A `ModuleRef.resolve` context: `REQUEST` injects `undefined` there unless one was registered. */
  readonly detached?: boolean;
  /** Instances built synchronously whose lifecycle hooks have yet to run (rare: hooks). */
  due: Array<readonly [ProviderNode, unknown]> | undefined;
}

/** A fresh store whose instances are released with `scope`; `request` is the HTTP request's context. */
export const makeRequestStore = (
  scope: Scope.Scope,
  request?: unknown,
  detached?: boolean,
): RequestStore => ({
  instances: new Map(),
  scope,
  request,
  due: undefined,
  ...(detached === true ? { detached } : {}),
});
