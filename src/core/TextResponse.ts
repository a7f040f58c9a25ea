import * as HttpServerResponse from "@effect/platform/HttpServerResponse";

const asciiHeaders = new WeakMap<object, boolean>();

/** `true` when every header value is ASCII (cached per headers object: route headers are static). */
const isAscii = (headers: Readonly<Record<string, string>>): boolean => {
  let known = asciiHeaders.get(headers);
  if (known === undefined) {
    known = Object.values(headers).every((value) => !/[^\u0020-\u007e\t]/.test(value));
    asciiHeaders.set(headers, known);
  }
  return known;
};

/**
 * A response whose body stays a JavaScript string until the socket write, skipping a
 * `TextEncoder` pass. Node then writes header block and body as one UTF-8 string, which would
 * mangle Latin-1 header values: with non-ASCII headers the body is encoded to bytes instead.
 */
export const stringResponse = (
  body: string,
  contentType: string,
  status: number,
  headers?: Readonly<Record<string, string>>,
): HttpServerResponse.HttpServerResponse =>
  headers === undefined || isAscii(headers)
    ? HttpServerResponse.raw(body, {
        status,
        headers: headers as Record<string, string> | undefined,
        contentType,
        contentLength: Buffer.byteLength(body),
      })
    : HttpServerResponse.text(body, { status, headers, contentType });

/** JSON `value` as a {@link stringResponse} (`JSON.stringify` failures throw, as a defect). */
export const jsonResponse = (
  value: unknown,
  status = 200,
  headers?: Readonly<Record<string, string>>,
): HttpServerResponse.HttpServerResponse =>
  stringResponse(JSON.stringify(value) ?? "null", "application/json", status, headers);
