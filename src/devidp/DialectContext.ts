/**
 * What every provider dialect of the development identity provider works with.
 *
 * @since 0.1.0
 */
import type * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import type { DevClients } from "./DevClient.js";
import type { DevUser } from "./DevUser.js";
import type { Grants } from "./Grants.js";
import type { IdTokenSigner } from "./IdTokenSigner.js";

/**
 * The running server's shared parts.
 *
 * @since 0.1.0
 * @category dialects
 */
export interface DialectContext {
  /** The server's base URL (`http://127.0.0.1:<port>`). */
  readonly base: string;
  readonly clients: DevClients;
  readonly users: ReadonlyArray<DevUser>;
  readonly grants: Grants;
  readonly signer: IdTokenSigner;
}

/**
 * A dialect: the routes it serves, given the shared parts.
 *
 * @since 0.1.0
 * @category dialects
 */
export type Dialect = (
  context: DialectContext,
) => ReadonlyArray<HttpLayerRouter.Route<never, never>>;
