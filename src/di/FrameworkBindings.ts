import * as Effect from "effect/Effect";
import { type Binding, NOT_NOW } from "./Binding.js";
import type { DiscoveryService } from "./DiscoveryService.js";
import type { LazyModuleLoader } from "./LazyModuleLoader.js";
import type { ProviderNode } from "./ModuleGraph.js";
import type { ModuleRef } from "./ModuleRef.js";
import type { RequestStore } from "./RequestStore.js";
import { StartupError } from "./StartupError.js";

/** What the injector provides itself: per app, and for a lazily loaded module's graph. */
export interface FrameworkInstances {
  readonly moduleRef: ModuleRef;
  readonly discovery: DiscoveryService;
  readonly lazyModuleLoader: LazyModuleLoader;
  /** The binding of the app's provider an `inherited` node stands for. */
  readonly inherited: (node: ProviderNode) => Binding;
  /** The store a durable provider is built in for a request's store. */
  readonly durable: (store: RequestStore, node: ProviderNode) => RequestStore;
}

/**
 * `INQUIRER`: an object of the class of the provider being built for (`inquirer.constructor`
 * is that class), as NestJS hands its constructor; `undefined` for what is built for no
 * provider (a singleton at startup, `moduleRef.resolve`).
 */
const INQUIRER_BINDING: Binding = {
  _tag: "Maker",
  make: (_store, inquirer) => {
    const prototype = (inquirer?.metatype as { prototype?: object } | undefined)?.prototype;
    return Effect.succeed(prototype === undefined ? undefined : Object.create(prototype));
  },
};

/** The `REQUEST` token: the request of the store, which only an HTTP request has. */
const requestBinding = (node: ProviderNode): Binding => ({
  _tag: "Maker",
  make: (store) =>
    store?.request === undefined && store?.detached !== true
      ? Effect.fail(
          new StartupError({
            message: `${node.name} is injected outside an HTTP request: only providers created for an HTTP request can inject it.`,
          }),
        )
      : Effect.succeed(store.request),
  now: (store) =>
    store.request === undefined && store.detached !== true ? NOT_NOW : store.request,
});

/**
 * The binding of a token the framework provides (`REQUEST`, `ModuleRef`, `DiscoveryService`,
 * `LazyModuleLoader`, `INQUIRER`, a provider shared by the app); `undefined` for the providers
 * modules declare.
 */
export const frameworkBinding = (
  node: ProviderNode,
  framework: FrameworkInstances,
): Binding | undefined => {
  switch (node.kind) {
    case "request":
      return requestBinding(node);
    case "moduleRef":
      return { _tag: "Instance", instance: framework.moduleRef };
    case "discovery":
      return { _tag: "Instance", instance: framework.discovery };
    case "lazyModuleLoader":
      return { _tag: "Instance", instance: framework.lazyModuleLoader };
    case "inherited":
      return framework.inherited(node);
    case "inquirer":
      return INQUIRER_BINDING;
  }
  return undefined;
};
