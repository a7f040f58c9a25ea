import type { Dependency, ModuleNode, Pending, ProviderNode } from "./GraphNodes.js";
import type { ModuleVisibility } from "./ModuleVisibility.js";
import { Scope } from "./Scope.js";
import { StartupError } from "./StartupError.js";
import { type InjectionToken, tokenName } from "./Token.js";

/** A dependency left empty while its `forwardRef` cycle is resolved, filled in afterwards. */
interface ForwardSlot {
  readonly slots: Array<ProviderNode | undefined>;
  readonly index: number;
  readonly target: Pending;
}

/** A token as NestJS names it in its messages: a class's name, a string as is. */
const rawName = (token: InjectionToken): string =>
  typeof token === "string" ? token : tokenName(token);

/**
 * Resolves providers into {@link ProviderNode}s, depth-first: each dependency is looked up
 * among the providers its module sees, cycles are detected, and nodes come out in dependency
 * order. A cycle is allowed when one of its edges is a `forwardRef`: the provider it reaches
 * back to is handed out as a placeholder first (see `ProviderNode.placeholder`).
 */
export class ProviderResolver {
  private readonly nodes = new Map<Pending, ProviderNode>();
  /** Every node, each after its dependencies (but `forwardRef`s). */
  readonly order: Array<ProviderNode> = [];
  private readonly resolving: Array<Pending> = [];
  /** `forwardIn[i]`: the edge into `resolving[i]` was declared with `forwardRef`. */
  private readonly forwardIn: Array<boolean> = [];
  private readonly forwardTargets = new Map<Pending, string>();
  private readonly forwardSlots: Array<ForwardSlot> = [];

  /**
   * `mock` gives a provider for a dependency no module provides (a testing module's
   * `useMocker`), `undefined` when it has none.
   */
  constructor(
    private readonly visibility: ModuleVisibility,
    private readonly mock: (dependency: Dependency) => Pending | undefined,
  ) {}

  /** The node of `pending`, resolving it (and what it depends on) on first ask. */
  resolve(pending: Pending, forward = false): ProviderNode {
    const done = this.nodes.get(pending);
    if (done !== undefined) return done;
    this.resolving.push(pending);
    this.forwardIn.push(forward);
    const declared =
      typeof pending.dependencies === "function" ? pending.dependencies() : pending.dependencies;
    const dependencies: Array<ProviderNode | undefined> = [];
    declared.forEach((dependency, index) => {
      dependencies.push(this.dependency(pending, dependency, dependencies, index));
    });
    this.resolving.pop();
    this.forwardIn.pop();
    const node = this.node(pending, dependencies);
    this.nodes.set(pending, node);
    this.order.push(node);
    return node;
  }

  /** Fills the dependencies left empty by `forwardRef` cycles; call once all is resolved. */
  fillForwardReferences(): void {
    for (const { slots, index, target } of this.forwardSlots) slots[index] = this.nodes.get(target);
  }

  /** The node of one dependency; `undefined` for a missing optional one or a `forwardRef` back-edge. */
  private dependency(
    pending: Pending,
    dependency: Dependency,
    slots: Array<ProviderNode | undefined>,
    index: number,
  ): ProviderNode | undefined {
    const found =
      this.visibility.visibleIn(pending.module).get(dependency.token) ?? this.mock(dependency);
    if (found === undefined) {
      if (dependency.optional) return undefined;
      throw this.missing(pending, dependency);
    }
    if (found === pending) {
      throw new StartupError({
        message: `${pending.name} in ${pending.module.path} injects itself (${dependency.where}): a provider cannot be its own dependency. Inject what it needs instead.`,
        reason: "UnknownDependencies",
      });
    }
    const cycleStart = this.resolving.indexOf(found);
    if (cycleStart === -1) return this.resolve(found, dependency.forward);
    const cycle = [...this.resolving.slice(cycleStart), found].map((p) => p.name).join(" -> ");
    const throughForwardRef =
      dependency.forward || this.forwardIn.slice(cycleStart + 1).some((f) => f);
    if (!throughForwardRef) {
      // NestJS's message, word for word (ports assert it); the cycle itself is in `path`.
      throw new StartupError({
        message: `A circular dependency has been detected inside "${rawName(found.token)}". Please, make sure that each side of a bidirectional relationships are decorated with "forwardRef()". Note that circular relationships between custom providers (e.g., factories) are not supported since functions cannot be called more than once.`,
        reason: "CircularDependency",
        path: `Dependency cycle: ${cycle} (in ${pending.module.path})`,
      });
    }
    this.forwardTargets.set(found, cycle);
    this.forwardSlots.push({ slots, index, target: found });
    return undefined;
  }

  /** The error for a dependency no visible provider satisfies, saying where it is provided. */
  private missing(pending: Pending, dependency: Dependency): StartupError {
    const module: ModuleNode = pending.module;
    const elsewhere = this.visibility.declaring(dependency.token).filter((m) => m !== module);
    const hint =
      elsewhere.length > 0
        ? ` It is provided in ${elsewhere.map((m) => m.path).join(", ")}: export it there and import that module into ${module.name}.`
        : ` Add it to the providers of ${module.name}, export it from a module ${module.name} imports, or mark it @Optional().`;
    const path = this.resolving.map((p) => p.name).join(" -> ");
    return new StartupError({
      message: `Cannot resolve ${dependency.where} (${tokenName(dependency.token)}) of ${pending.name} in ${module.path}: no provider of ${tokenName(dependency.token)} is visible there.${hint} Path: ${path}.`,
      reason: "UnknownDependencies",
    });
  }

  /** The node of a resolved provider: its effective scope, and its placeholder in a cycle. */
  private node(pending: Pending, dependencies: Array<ProviderNode | undefined>): ProviderNode {
    const present = dependencies.filter((d): d is ProviderNode => d !== undefined);
    const scope =
      pending.kind === "alias" && present.length === 1
        ? present[0].scope
        : pending.declaredScope === Scope.REQUEST || present.some((d) => d.scope === Scope.REQUEST)
          ? Scope.REQUEST
          : pending.declaredScope;
    const cycle = this.forwardTargets.get(pending);
    const prototype = pending.prototype;
    if (cycle !== undefined && (prototype === undefined || scope !== Scope.SINGLETON)) {
      throw new StartupError({
        reason: "CircularDependency",
        message: `Dependency cycle through forwardRef: ${cycle} (in ${pending.module.path}). ${pending.name} is reached again before it is built, which works only when it is a singleton class provider; it is ${prototype === undefined ? "a factory, a value or an alias" : `${scope}-scoped`}. Break the cycle (move the shared part to a third provider).`,
      });
    }
    return {
      id: this.order.length,
      token: pending.token,
      name: pending.name,
      module: pending.module,
      kind: pending.kind,
      create: pending.create,
      synchronous: pending.synchronous,
      dependencies,
      scope,
      ...(pending.metatype === undefined ? {} : { metatype: pending.metatype }),
      ...(pending.inherited === undefined ? {} : { inherited: pending.inherited }),
      ...(pending.durable === true &&
      scope === Scope.REQUEST &&
      present.every((d) => d.scope !== Scope.REQUEST || d.kind === "request" || d.durable === true)
        ? { durable: true }
        : {}),
      ...(cycle !== undefined && prototype !== undefined
        ? { placeholder: () => Object.create(prototype) as object }
        : {}),
    };
  }
}
