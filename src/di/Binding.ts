import type * as Effect from "effect/Effect";
import type { ProviderNode } from "./ModuleGraph.js";
import type { RequestStore } from "./RequestStore.js";

/**
 * Builds an instance of a provider in a request's store (`undefined` outside a request).
 * `inquirer`: the provider it is built for (what `INQUIRER` injects an object of).
 */
export type Make = (
  store: RequestStore | undefined,
  inquirer?: ProviderNode,
) => Effect.Effect<unknown, unknown>;

/**
 * How a provider is obtained: a singleton is an instance built once at startup; a transient
 * or request-scoped provider is a maker run per injection or per request.
 */
export type Binding =
  | { readonly _tag: "Instance"; readonly instance: unknown }
  | {
      readonly _tag: "Maker";
      readonly make: Make;
      /** The instance built synchronously, or `NOT_NOW` (request-scoped classes and values only). */
      readonly now?: ((store: RequestStore) => unknown) | undefined;
    };

/** Returned by a binding's `now` when the instance needs the Effect path (nothing was built). */
export const NOT_NOW: unique symbol = Symbol("effect-strata/di/NotNow");
