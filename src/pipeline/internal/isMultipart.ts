import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";

/** `true` when the request declares a `multipart/form-data` body with a boundary. */
export const isMultipart = (request: HttpServerRequest.HttpServerRequest): boolean => {
  const type = request.headers["content-type"]?.toLowerCase() ?? "";
  return type.startsWith("multipart/form-data") && type.includes("boundary=");
};
