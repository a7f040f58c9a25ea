import { StartupError, type StartupErrorReason } from "./StartupError.js";

/** A class whose `instanceof` recognises the {@link StartupError}s of one reason (any, without). */
const startupErrorView = (name: string, reason?: StartupErrorReason) => {
  const View = class {
    static [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof StartupError && (reason === undefined || value.reason === reason);
    }
  };
  Object.defineProperty(View, "name", { value: name });
  return View;
};

/**
 * NestJS's `RuntimeException`, as its tests use it: `error instanceof RuntimeException` is true
 * of every {@link StartupError} (Strata's start fails with those, not with NestJS's classes).
 *
 * @since 0.1.0
 * @category errors
 */
export const RuntimeException = startupErrorView("RuntimeException");

/**
 * NestJS's `UnknownDependenciesException`: recognises a {@link StartupError} for a dependency no
 * visible provider satisfies (`instanceof` only: Strata throws `StartupError`).
 *
 * @since 0.1.0
 * @category errors
 */
export const UnknownDependenciesException = startupErrorView(
  "UnknownDependenciesException",
  "UnknownDependencies",
);

/**
 * NestJS's `UnknownExportException`: recognises a {@link StartupError} for an export the module
 * neither provides nor imports (`instanceof` only).
 *
 * @since 0.1.0
 * @category errors
 */
export const UnknownExportException = startupErrorView("UnknownExportException", "UnknownExport");

/**
 * NestJS's `CircularDependencyException`: recognises a {@link StartupError} for a dependency
 * cycle (`instanceof` only).
 *
 * @since 0.1.0
 * @category errors
 */
export const CircularDependencyException = startupErrorView(
  "CircularDependencyException",
  "CircularDependency",
);

/**
 * NestJS's `InvalidClassScopeException`: recognises the {@link StartupError} `get()` throws for
 * a request-scoped provider (`instanceof` only; use `resolve()` for those).
 *
 * @since 0.1.0
 * @category errors
 */
export const InvalidClassScopeException = startupErrorView(
  "InvalidClassScopeException",
  "InvalidClassScope",
);
