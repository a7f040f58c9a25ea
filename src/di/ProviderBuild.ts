import * as Effect from "effect/Effect";
import { fromUserCode } from "../http/UserCode.js";
import type { Binding, Make } from "./Binding.js";
import type { ProviderNode } from "./ModuleGraph.js";

/**
 * Creates one instance of a provider from the bindings of its dependencies, in their order.
 * Dependencies that are instances are read directly; only makers run as Effects. Each maker
 * is told whom it is built for: this provider, but `INQUIRER` this one's inquirer.
 */
export const providerBuild = (node: ProviderNode, bindings: ReadonlyArray<Binding>): Make => {
  const forInquirer = node.dependencies.map((d) => d?.kind === "inquirer");
  return (store, inquirer) => {
    const args = new Array<unknown>(bindings.length);
    let pending: Array<Effect.Effect<void, unknown>> | undefined;
    for (let i = 0; i < bindings.length; i++) {
      const binding = bindings[i];
      if (binding._tag === "Instance") {
        args[i] = binding.instance;
        continue;
      }
      pending ??= [];
      pending.push(
        Effect.map(binding.make(store, forInquirer[i] ? inquirer : node), (instance) => {
          args[i] = instance;
        }),
      );
    }
    const create = fromUserCode(() => node.create(args));
    return pending === undefined
      ? create
      : Effect.zipRight(Effect.all(pending, { discard: true }), create);
  };
};
