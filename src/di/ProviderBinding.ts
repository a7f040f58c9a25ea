import * as Effect from "effect/Effect";
import type { Binding } from "./Binding.js";
import { type FrameworkInstances, frameworkBinding } from "./FrameworkBindings.js";
import type { ProviderNode } from "./ModuleGraph.js";
import { providerBuild } from "./ProviderBuild.js";
import { Scope as ProviderScope } from "./Scope.js";
import { scopedBinding } from "./ScopedBinding.js";
import { singletonBinding } from "./SingletonBinding.js";
import type { StartupError } from "./StartupError.js";

/** What an optional dependency without a provider injects. */
const ABSENT: Binding = { _tag: "Instance", instance: undefined };

/**
 * The binding of one provider, built from the bindings of its dependencies (built before it):
 * what the framework provides, an alias, a singleton (built now) or a transient or
 * request-scoped maker.
 */
export const providerBinding = (
  node: ProviderNode,
  built: ReadonlyMap<ProviderNode, Binding>,
  singletonHooks: (node: ProviderNode, instance: unknown) => Effect.Effect<void, unknown>,
  framework: FrameworkInstances,
): Effect.Effect<Binding, StartupError> =>
  Effect.suspend(() => {
    const provided = frameworkBinding(node, framework);
    if (provided !== undefined) return Effect.succeed(provided);
    const bindings = node.dependencies.map((dependency) =>
      dependency === undefined ? ABSENT : (built.get(dependency) as Binding),
    );
    // `useExisting`: the very binding of the token it aliases, so the same instance.
    if (node.kind === "alias") return Effect.succeed(bindings[0]);
    const build = providerBuild(node, bindings);
    if (node.scope === ProviderScope.SINGLETON) {
      return singletonBinding(node, built, build, singletonHooks);
    }
    return Effect.succeed(scopedBinding(node, bindings, build, framework.durable));
  });
