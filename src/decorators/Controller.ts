import type { InjectableMetadata } from "../di/Injectable.js";
import { MetadataKey, readMetadata, writeMetadata } from "../di/metadata.js";
import type { Scope } from "../di/Scope.js";
import type { VersionValue } from "../pipeline/Versioning.js";

/**
 * The host a controller answers (`@Controller({ host })`): a hostname, a pattern with `:name`
 * parts (`":tenant.example.com"`, read with `@HostParam("tenant")`), a RegExp (its named groups
 * are the host parameters), or several of them.
 *
 * @since 0.1.0
 * @category decorators
 */
export type ControllerHost = string | RegExp | ReadonlyArray<string | RegExp>;

/**
 * Options of {@link Controller}. `version` is the API version of every route of the controller
 * (a method's `@Version` overrides it); it routes only when the app enables versioning. `host`
 * restricts the controller to requests for that host; `scope` is its provider scope, as
 * `@Injectable({ scope })`.
 *
 * @since 0.1.0
 * @category decorators
 */
export interface ControllerOptions {
  readonly path?: string;
  readonly version?: VersionValue;
  readonly host?: ControllerHost;
  readonly scope?: Scope;
}

/** The recorded `@Controller` options. */
export interface ControllerMetadata {
  readonly path: string;
  readonly version?: VersionValue;
  readonly host?: ControllerHost;
}

/**
 * Declares a controller and its route prefix (`users` and `/users` are the same prefix), or
 * its options (`{ path, version, host, scope }`, every one optional).
 * A controller is a provider too: its constructor parameters are injected.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Controller =
  (pathOrOptions: string | ControllerOptions = ""): ClassDecorator =>
  (target) => {
    const options: ControllerOptions =
      typeof pathOrOptions === "string" ? { path: pathOrOptions } : pathOrOptions;
    const metadata: ControllerMetadata = {
      path: options.path ?? "",
      ...(options.version === undefined ? {} : { version: options.version }),
      ...(options.host === undefined ? {} : { host: options.host }),
    };
    writeMetadata(MetadataKey.controller, metadata, target);
    if (options.scope !== undefined) {
      const injectable = readMetadata<InjectableMetadata>(MetadataKey.injectable, target);
      writeMetadata(MetadataKey.injectable, { ...injectable, scope: options.scope }, target);
    }
  };
