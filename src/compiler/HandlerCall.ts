import * as Effect from "effect/Effect";
import { fromResult } from "../http/UserCode.js";
import type { HttpExecution } from "../pipeline/internal/execution.js";
import { rawValue } from "./ParamValues.js";
import type { RoutePlan } from "./RoutePlan.js";
import { applyPipes } from "./runPipes.js";

/** Calls a route's handler for a request: its result, or an Effect of it. */
export type HandlerCall = (execution: HttpExecution) => unknown;

/**
 * The call of `plan`'s handler, built once per route: its arguments read and piped, then the
 * method called on the controller (the singleton, or the request's instance when it is
 * request-scoped). `arity` is the handler's argument count.
 */
export const handlerCall = (plan: RoutePlan, arity: number): HandlerCall => {
  const { params, method, injector, node } = plan;

  const call = (controller: unknown, args: ReadonlyArray<unknown>): unknown => {
    try {
      return (controller as Record<string | symbol, (...a: ReadonlyArray<unknown>) => unknown>)[
        method
      ](...args);
    } catch (error) {
      return Effect.fail(error);
    }
  };

  /**
   * Pipes the arguments from `from` on and calls the handler: its result, or an Effect of it.
   * One argument at a time: the next waits for an asynchronous one, so the argument a pipe reads
   * from its context (`execution.argument`) stays its own until its last pipe has answered.
   */
  const argumentsFrom = (
    from: number,
    controller: unknown,
    execution: HttpExecution,
    args: Array<unknown>,
  ): unknown => {
    const pipes = execution.enhancers.pipes;
    for (let i = from; i < params.length; i++) {
      const { meta, argument } = params[i];
      const raw = rawValue(meta, execution);
      const list = pipes[i];
      let piped = raw;
      if (list.length > 0) {
        execution.argument = argument;
        piped =
          meta.source === "custom" && Effect.isEffect(raw)
            ? Effect.flatMap(raw as Effect.Effect<unknown, unknown>, (value) =>
                fromResult(applyPipes(value, list, execution, argument)),
              )
            : applyPipes(raw, list, execution, argument);
      }
      if (!Effect.isEffect(piped)) {
        args[meta.index] = piped;
        continue;
      }
      return Effect.flatMap(piped as Effect.Effect<unknown, unknown>, (value) => {
        args[meta.index] = value;
        return fromResult(argumentsFrom(i + 1, controller, execution, args));
      });
    }
    return call(controller, args);
  };

  /** Pipes every argument and calls the handler: its result, or an Effect of it. */
  const invokeOn = (controller: unknown, execution: HttpExecution): unknown =>
    argumentsFrom(0, controller, execution, new Array<unknown>(arity));

  const singleton = plan.singleton;
  return singleton !== undefined
    ? (execution) => invokeOn(singleton, execution)
    : (execution) =>
        Effect.flatMap(injector.instance(node, execution.requestStore()), (controller) =>
          fromResult(invokeOn(controller, execution)),
        );
};
