import type { Binding } from "./Binding.js";
import type { DiscoveredProvider, DiscoverySource } from "./DiscoveryService.js";
import type { ModuleGraph, ProviderNode } from "./ModuleGraph.js";

/** What {@link DiscoveryService} lists: the graph's providers and controllers, with their instances. */
export const discoverySource = (
  graph: ModuleGraph,
  bindings: ReadonlyMap<ProviderNode, Binding>,
): DiscoverySource => {
  const controllers = new Set(graph.controllers);
  const wrapper = (node: ProviderNode): DiscoveredProvider => {
    const binding = bindings.get(node);
    return {
      token: node.token,
      name: node.name,
      metatype: node.metatype,
      instance: binding?._tag === "Instance" ? binding.instance : undefined,
      scope: node.scope,
      host: node.module.cls,
    };
  };
  return {
    providers: () =>
      graph.providers
        .filter(
          (node) => !controllers.has(node) && (node.kind === "provider" || node.kind === "alias"),
        )
        .map(wrapper),
    controllers: () => graph.controllers.map(wrapper),
  };
};
