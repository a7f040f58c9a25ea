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
  /** What kind of problem it is, when the module graph is at fault (see {@link StartupErrorReason}). */
  readonly reason?: StartupErrorReason;
  /** Where the problem is, when the message does not say (a dependency cycle: its providers in order). */
  readonly path?: string;
}> {}

/**
 * The kinds of module-graph problems a {@link StartupError} reports: a dependency no visible
 * provider satisfies (a provider injecting itself included), an export the module neither
 * provides nor imports, a dependency cycle, a request-scoped provider asked for with `get()`
 * (use `resolve()`). NestJS's `UnknownDependenciesException`, `UnknownExportException`,
 * `CircularDependencyException` and `InvalidClassScopeException` recognise them.
 *
 * @since 0.1.0
 * @category errors
 */
export type StartupErrorReason =
  | "UnknownDependencies"
  | "UnknownExport"
  | "CircularDependency"
  | "InvalidClassScope";
