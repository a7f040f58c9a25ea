import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import type * as Exit from "effect/Exit";
import * as Logger from "effect/Logger";

/** Runs an Effect of the `StrataApp` facade with the app's logger (the `logger` option). */
export const runWithLogger = <A, E>(
  effect: Effect.Effect<A, E>,
  logger: Logger.Logger<unknown, unknown> | undefined,
): Promise<Exit.Exit<A, E>> =>
  Effect.runPromiseExit(
    logger === undefined
      ? effect
      : Effect.provide(effect, Logger.replace(Logger.defaultLogger, logger)),
  );

/** Throws what a failed Effect of the facade failed with, as a promise rejects. */
export const rethrow = (cause: Cause.Cause<unknown>): never => {
  throw Cause.squash(cause);
};
