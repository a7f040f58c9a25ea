import type * as Scope from "effect/Scope";
import type { ContextId, HostComponentInfo } from "./ContextId.js";
import type { ProviderNode } from "./GraphNodes.js";

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
  /**
   * What the durable providers' strategy decided for this request, once a durable provider
   * asked (`null`: it maps the request to no shared context, or this store is a shared one).
   */
  durable?: {
    readonly own: ContextId;
    readonly resolve: (info: HostComponentInfo) => ContextId;
    readonly payload: unknown;
  } | null;
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
