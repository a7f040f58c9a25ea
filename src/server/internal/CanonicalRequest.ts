import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse } from "../../http/ErrorResponse.js";
import { BadRequestError } from "../../http/HttpError.js";
import { canonicalTarget } from "../../http/RequestTarget.js";
import { writeNodeResponse } from "./NodeResponseWriter.js";
import { NodeServerRequest } from "./NodeServerRequest.js";

/** The answer to a request target with no single meaning (see `canonicalTarget`), before any route runs. */
const badTarget = errorResponse(new BadRequestError("Malformed request target"));

/**
 * The request for `req` with its target in canonical form, or `undefined` once `res` has been
 * answered 400 for a target with no single meaning (SECURITY.md check 35).
 */
export const canonicalRequest = (
  req: IncomingMessage,
  res: ServerResponse,
): NodeServerRequest | undefined => {
  const url = canonicalTarget(req.url ?? "/");
  if (url !== undefined) return new NodeServerRequest(req, res, url);
  writeNodeResponse(res, req.method ?? "GET", badTarget);
  return undefined;
};
