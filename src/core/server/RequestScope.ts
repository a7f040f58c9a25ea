import * as Effect from "effect/Effect";
import * as ExecutionStrategy from "effect/ExecutionStrategy";
import type * as Exit from "effect/Exit";
import * as Scope from "effect/Scope";

interface ScopeState {
  strategy: ExecutionStrategy.ExecutionStrategy;
  state:
    | { readonly _tag: "Open"; readonly finalizers: Map<object, unknown> }
    | { readonly _tag: "Closed"; readonly exit: Exit.Exit<unknown, unknown> };
}

/**
 * Makes request scopes synchronously, outside any fiber, so a request's whole context can be
 * built before its fiber starts. Each scope is an ordinary Effect scope: it is created from the
 * prototype of one made by `Scope.make()` at startup, exactly as `Scope.make()` itself does; the
 * shape is checked then, so a change in Effect fails the start instead of a request.
 */
export const makeRequestScopes: Effect.Effect<() => Scope.CloseableScope> = Effect.map(
  Scope.make(),
  (template) => {
    const shape = template as unknown as Partial<ScopeState> & {
      close?: unknown;
      addFinalizer?: unknown;
    };
    if (
      shape.state?._tag !== "Open" ||
      !(shape.state.finalizers instanceof Map) ||
      typeof shape.close !== "function" ||
      typeof shape.addFinalizer !== "function"
    ) {
      throw new Error("Unsupported effect version: Scope has an unexpected shape");
    }
    const prototype = Object.getPrototypeOf(template) as object;
    return () => {
      const scope = Object.create(prototype) as ScopeState & Scope.CloseableScope;
      scope.strategy = ExecutionStrategy.sequential;
      scope.state = { _tag: "Open", finalizers: new Map() };
      return scope;
    };
  },
);

/**
 * Closes a scope made by {@link makeRequestScopes}: at once when nothing was added to it (what
 * `Scope.close` does then, without running an Effect), and `Effect.void` is returned; otherwise
 * the Effect that runs its finalizers, uninterruptibly.
 */
export const closeRequestScope = (
  scope: Scope.CloseableScope,
  exit: Exit.Exit<unknown, unknown>,
): Effect.Effect<void> => {
  const shaped = scope as unknown as ScopeState;
  if (shaped.state._tag === "Closed") return Effect.void;
  if (shaped.state.finalizers.size === 0) {
    shaped.state = { _tag: "Closed", exit };
    return Effect.void;
  }
  return Effect.uninterruptible(Scope.close(scope, exit));
};
