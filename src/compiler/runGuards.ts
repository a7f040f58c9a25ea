import * as Effect from "effect/Effect";
import { ForbiddenError } from "../http/HttpError.js";
import { isObservable } from "../http/ObservableResult.js";
import { awaitResult, isThenable } from "../http/UserCode.js";
import type { CanActivate } from "../pipeline/CanActivate.js";
import type { ExecutionContext } from "../pipeline/ExecutionContext.js";

const forbidden = Effect.fail(new ForbiddenError());

const verdict = (allowed: unknown): Effect.Effect<void, ForbiddenError> =>
  allowed === true ? Effect.void : forbidden;

/**
 * Runs guards in order and synchronously while they answer synchronously: `undefined` when
 * every guard allowed the request, else an Effect that fails with 403 `Forbidden` at the first
 * guard answering anything but `true` (or with what a guard threw), and succeeds otherwise.
 */
export const runGuards = (
  guards: ReadonlyArray<CanActivate>,
  context: ExecutionContext,
  from = 0,
): Effect.Effect<void, unknown> | undefined => {
  for (let i = from; i < guards.length; i++) {
    let result: unknown;
    try {
      result = guards[i].canActivate(context);
    } catch (error) {
      return Effect.fail(error);
    }
    if (result === true) continue;
    if (!Effect.isEffect(result) && !isThenable(result) && !isObservable(result)) return forbidden;
    return Effect.flatMap(awaitResult(result), (allowed) =>
      allowed === true ? (runGuards(guards, context, i + 1) ?? Effect.void) : verdict(allowed),
    );
  }
  return undefined;
};
