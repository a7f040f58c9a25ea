import * as Data from "effect/Data";

/**
 * The app cannot start: a dependency that cannot be resolved, missing type metadata, a
 * dependency cycle, a module boundary crossed, or a failing provider factory. The message
 * names the class, the parameter and the module path.
 *
 * @since 0.1.0
 * @category errors
 */
export class StartupError extends Data.TaggedError("StartupError")<{
  readonly message: string;
  readonly cause?: unknown;
}> {}
