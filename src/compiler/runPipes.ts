import * as Effect from "effect/Effect";
import { isObservable } from "../http/ObservableResult.js";
import { fromResult, isThenable } from "../http/UserCode.js";
import type { ArgumentMetadata, PipeContext, PipeTransform } from "../pipeline/PipeTransform.js";

/** `true` for a result that needs awaiting: a Promise, an Effect or an rxjs Observable. */
export const isAsync = (value: unknown): boolean =>
  Effect.isEffect(value) || isThenable(value) || isObservable(value);

/**
 * Applies pipes in order, synchronously while they answer synchronously: the result is the
 * piped value, or an Effect once a pipe throws or returns a Promise or an Effect.
 */
export const applyPipes = (
  value: unknown,
  pipes: ReadonlyArray<PipeTransform>,
  context: PipeContext,
  metadata: ArgumentMetadata,
  from = 0,
): unknown => {
  let current = value;
  for (let i = from; i < pipes.length; i++) {
    let result: unknown;
    try {
      result = pipes[i].transform(current, context, metadata);
    } catch (error) {
      return Effect.fail(error);
    }
    if (isAsync(result)) {
      return Effect.flatMap(fromResult(result), (next) => {
        const piped = applyPipes(next, pipes, context, metadata, i + 1);
        return Effect.isEffect(piped) ? piped : Effect.succeed(piped);
      });
    }
    current = result;
  }
  return current;
};
