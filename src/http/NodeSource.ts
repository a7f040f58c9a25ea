/**
 * The node request under a platform request, for reading its body straight from the socket.
 *
 * @since 0.1.0
 */
import type { IncomingMessage } from "node:http";
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";

/**
 * The node `IncomingMessage` `request` wraps, when it runs on node (else `undefined`: a web
 * `Request`, a test double).
 *
 * @since 0.1.0
 * @category body
 */
export const nodeSource = (
  request: HttpServerRequest.HttpServerRequest,
): IncomingMessage | undefined => {
  const source = (request as { readonly source?: unknown }).source;
  return source !== null && typeof source === "object" && "socket" in source
    ? (source as IncomingMessage)
    : undefined;
};
