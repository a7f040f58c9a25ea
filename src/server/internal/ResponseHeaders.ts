/**
 * Headers added to a platform response on the request path. `HttpServerResponse.setHeaders`
 * normalises its input and copies the headers four or five times (1.9 µs a call, measured);
 * middleware that adds headers to every response does it with one copy here.
 *
 * @since 0.1.0
 */
import * as Headers from "@effect/platform/Headers";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";

type Response = HttpServerResponse.HttpServerResponse;

const sample = HttpServerResponse.empty();
const responsePrototype: object = Object.getPrototypeOf(sample);
const headersPrototype: object = Object.getPrototypeOf(Headers.empty);

/**
 * The platform's response class has exactly the fields copied below (checked once, at load);
 * if a platform version ever differs, the public API is used instead.
 */
const knownShape =
  Object.keys(sample).join() === "status,statusText,cookies,body,headers" &&
  sample[HttpServerResponse.TypeId] === HttpServerResponse.TypeId;

/**
 * `response` with `headers` in place of its own: one new response, no copy of anything else.
 * As the platform's constructor does, the body's content type and length override `headers`.
 */
const withHeaders = (response: Response, headers: Record<string, string>): Response => {
  const body = response.body as { readonly contentType?: string; readonly contentLength?: number };
  if (body.contentType) headers["content-type"] = body.contentType;
  if (body.contentLength) headers["content-length"] = body.contentLength.toString();
  const copy = Object.create(responsePrototype);
  copy.status = response.status;
  copy.statusText = response.statusText;
  copy.cookies = response.cookies;
  copy.body = response.body;
  copy.headers = headers;
  copy[HttpServerResponse.TypeId] = HttpServerResponse.TypeId;
  return copy;
};

const fast = (response: Response) =>
  knownShape && Object.getPrototypeOf(response) === responsePrototype;

/**
 * `response` with `headers` set, replacing its own values of the same names. Names must be
 * lowercase; values must not carry CR or LF (the server refuses such a response).
 *
 * @since 0.1.0
 * @category response
 */
export const setResponseHeaders = (
  response: Response,
  headers: Readonly<Record<string, string>>,
): Response => {
  if (!fast(response)) return HttpServerResponse.setHeaders(response, headers);
  return withHeaders(
    response,
    Object.assign(Object.create(headersPrototype), response.headers, headers),
  );
};

/**
 * `response` with those of `headers` it does not have yet: its own values win. Names must be
 * lowercase; values must not carry CR or LF.
 *
 * @since 0.1.0
 * @category response
 */
export const addDefaultHeaders = (
  response: Response,
  headers: Readonly<Record<string, string>>,
): Response => {
  if (!fast(response)) {
    const missing: Record<string, string> = {};
    for (const name in headers)
      if (response.headers[name] === undefined) missing[name] = headers[name];
    return HttpServerResponse.setHeaders(response, missing);
  }
  return withHeaders(
    response,
    Object.assign(Object.create(headersPrototype), headers, response.headers),
  );
};
