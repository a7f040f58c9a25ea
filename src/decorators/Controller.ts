import { MetadataKey, writeMetadata } from "../di/metadata.js";
import type { VersionValue } from "../pipeline/Versioning.js";

/**
 * Options of {@link Controller}. `version` is the API version of every route of the controller
 * (a method's `@Version` overrides it); it routes only when the app enables versioning.
 *
 * @since 0.1.0
 * @category decorators
 */
export interface ControllerOptions {
  readonly path: string;
  readonly version?: VersionValue;
}

/** The recorded `@Controller` options. */
export interface ControllerMetadata {
  readonly path: string;
  readonly version?: VersionValue;
}

/**
 * Declares a controller and its route prefix (`users` and `/users` are the same prefix).
 * A controller is a provider too: its constructor parameters are injected.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Controller =
  (pathOrOptions: string | ControllerOptions = ""): ClassDecorator =>
  (target) => {
    const metadata: ControllerMetadata =
      typeof pathOrOptions === "string" ? { path: pathOrOptions } : pathOrOptions;
    writeMetadata(MetadataKey.controller, metadata, target);
  };
