import * as Effect from "effect/Effect";
import * as ExecutionStrategy from "effect/ExecutionStrategy";
import * as Exit from "effect/Exit";
import * as Scope from "effect/Scope";

interface ScopeState {
  strategy: ExecutionStrategy.ExecutionStrategy;
  state:
    | { readonly _tag: "Open"; readonly finalizers: Map<object, unknown> }
    | { readonly _tag: "Closed"; readonly exit: Exit.Exit<unknown, unknown> };
}

/**
 * The open state of a request scope, as Effect's scope reads it (`_tag`, then `finalizers`'
 * `set`, `delete` and `values`), with its finalizers' Map made on first use: most requests add
 * no finalizer, and a Map is ~100 bytes and ~200 instructions of every request otherwise.
 */
class OpenRequestScope {
  readonly _tag = "Open";
  private added: Map<object, unknown> | undefined = undefined;

  get finalizers(): Map<object, unknown> {
    if (this.added === undefined) this.added = new Map();
    return this.added;
  }

  /** Whether no finalizer is waiting (none added, or every one added removed again). */
  get empty(): boolean {
    return this.added === undefined || this.added.size === 0;
  }
}

/**
 * Makes request scopes synchronously, outside any fiber, so a request's whole context can be
 * built before its fiber starts. Each scope is an ordinary Effect scope: it is created from the
 * prototype of one made by `Scope.make()` at startup, as `Scope.make()` itself does (its open
 * state an {@link OpenRequestScope}, which makes the finalizers' Map when one is added). That
 * relies on the scope's private shape, checked then: should a version of Effect shape it
 * otherwise, scopes are made with the public `Scope.make()` instead (one debug log says so).
 */
export const makeRequestScopes: Effect.Effect<() => Scope.CloseableScope> = Effect.flatMap(
  Scope.make(),
  (template) => {
    if (!hasKnownShape(template)) {
      return Effect.as(
        Effect.logDebug(
          "Strata: Effect's Scope has an unexpected shape; request scopes are made with Scope.make",
        ),
        () => Effect.runSync(Scope.make()),
      );
    }
    const prototype = Object.getPrototypeOf(template) as object;
    return Effect.succeed(() => {
      const scope = Object.create(prototype) as ScopeState & Scope.CloseableScope;
      scope.strategy = ExecutionStrategy.sequential;
      scope.state = new OpenRequestScope();
      return scope;
    });
  },
);

/** Whether `scope` has the shape (Effect 3's) that {@link closeRequestScope} reads and writes. */
const hasKnownShape = (scope: Scope.CloseableScope): boolean => {
  const shape = scope as unknown as Partial<ScopeState> & {
    close?: unknown;
    addFinalizer?: unknown;
  };
  return (
    shape.state?._tag === "Open" &&
    shape.state.finalizers instanceof Map &&
    typeof shape.close === "function" &&
    typeof shape.addFinalizer === "function"
  );
};

/**
 * The state of a scope closed with `Exit.void` and nothing to finalize: one object for every
 * request (Effect's own scopes share a closed state too: a scope forked from a closed one takes
 * its parent's), never written to, as Effect replaces a scope's state instead.
 */
const closedVoid: ScopeState["state"] = { _tag: "Closed", exit: Exit.void };

/**
 * Closes a scope made by {@link makeRequestScopes}: at once when nothing was added to it (what
 * `Scope.close` does then, without running an Effect), and `Effect.void` is returned; otherwise
 * the Effect that runs its finalizers, uninterruptibly (always, for a scope of another shape).
 */
export const closeRequestScope = (
  scope: Scope.CloseableScope,
  exit: Exit.Exit<unknown, unknown>,
): Effect.Effect<void> => {
  const shaped = scope as unknown as Partial<ScopeState>;
  const state = shaped.state;
  if (state?._tag === "Closed") return Effect.void;
  const empty =
    state instanceof OpenRequestScope
      ? state.empty
      : state?.finalizers instanceof Map && state.finalizers.size === 0;
  if (empty) {
    shaped.state = exit === Exit.void ? closedVoid : { _tag: "Closed", exit };
    return Effect.void;
  }
  return Effect.uninterruptible(Scope.close(scope, exit));
};
