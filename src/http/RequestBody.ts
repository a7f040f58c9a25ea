import type { IncomingMessage } from "node:http";
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Effect from "effect/Effect";
import * as FiberRef from "effect/FiberRef";
import { BadRequestError, PayloadTooLargeError } from "./HttpError.js";
import { currentJsonDepthLimit, parsedJsonExceedsDepth } from "./internal/jsonDepth.js";
import { nodeSource } from "./NodeSource.js";

/** Default limit of a request body: 1 MB. @since 0.1.0 @category body */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * The kinds of body Strata parses, as NestJS's `app.useBodyParser(type)` names them: JSON,
 * `application/x-www-form-urlencoded`, `text/*`, and any other type (kept as bytes).
 *
 * @since 0.1.0
 * @category body
 */
export type BodyType = "json" | "urlencoded" | "text" | "raw";

/**
 * The size limit of a request body: one for every body, or one by the request's `Content-Type`
 * (`useBodyParser(type, { limit })`, or the app's `bodyLimits` option).
 *
 * @since 0.1.0
 * @category body
 */
export type BodyLimit = number | ((contentType: string) => number);

/** The {@link BodyType} of a body of `contentType` (lower-cased). */
const bodyTypeOf = (contentType: string): BodyType =>
  contentType.includes("json")
    ? "json"
    : contentType.startsWith("application/x-www-form-urlencoded")
      ? "urlencoded"
      : contentType.startsWith("text/")
        ? "text"
        : "raw";

/**
 * The {@link BodyLimit} of `limits` by body type, `otherwise` for the others: decided once, at
 * startup; with no per-type limit it is `otherwise` itself (no work per request).
 *
 * @since 0.1.0
 * @category body
 */
export const bodyLimitByType = (
  otherwise: number,
  limits: Partial<Readonly<Record<BodyType, number>>> | undefined,
): BodyLimit =>
  limits === undefined || Object.keys(limits).length === 0
    ? otherwise
    : (contentType) => limits[bodyTypeOf(contentType.toLowerCase())] ?? otherwise;

const tooLarge = new PayloadTooLargeError();
const unreadable = new BadRequestError("Request body could not be read");
const invalidJson = new BadRequestError("Invalid JSON body");

/**
 * Reads a node request body into one buffer, at most `limit` bytes. Past the limit it stops
 * keeping chunks and lets the rest drain, so a 413 can still be written on the connection.
 */
const readNode = (source: IncomingMessage, limit: number) =>
  Effect.async<Buffer, BadRequestError | PayloadTooLargeError>((resume) => {
    const chunks: Array<Buffer> = [];
    let size = 0;
    const cleanup = () => {
      source.off("data", onData);
      source.off("end", onEnd);
      source.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        source.resume();
        resume(Effect.fail(tooLarge));
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = () => {
      cleanup();
      resume(Effect.succeed(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    };
    const onError = () => {
      cleanup();
      resume(Effect.fail(unreadable));
    };
    source.on("data", onData);
    source.on("end", onEnd);
    source.on("error", onError);
    return Effect.sync(cleanup);
  });

const readBytes = (
  request: HttpServerRequest.HttpServerRequest,
  bodyLimit: BodyLimit,
): Effect.Effect<Uint8Array, BadRequestError | PayloadTooLargeError> => {
  const limit =
    typeof bodyLimit === "number" ? bodyLimit : bodyLimit(request.headers["content-type"] ?? "");
  const declared = request.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) return Effect.fail(tooLarge);
  const source = nodeSource(request);
  if (source !== undefined) return readNode(source, limit);
  return Effect.flatMap(
    Effect.mapError(request.arrayBuffer, () => unreadable),
    (buffer) =>
      buffer.byteLength > limit ? Effect.fail(tooLarge) : Effect.succeed(new Uint8Array(buffer)),
  );
};

const decoder = new TextDecoder();

/** The answer to a JSON body nested deeper than `limit`. */
const tooDeep = (limit: number) =>
  new BadRequestError(`JSON body nested deeper than ${limit} levels`);

/** JSON text parsed, unless it is malformed or nested deeper than `depthLimit`. */
const parseJson = (text: string, depthLimit: number) => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return Effect.fail(invalidJson);
  }
  return parsedJsonExceedsDepth(text, value, depthLimit)
    ? Effect.fail(tooDeep(depthLimit))
    : Effect.succeed(value);
};

/**
 * Decodes the bytes of a body by the request's `Content-Type` (see {@link readBody}); JSON
 * deeper than `depthLimit` (by default the fiber's `currentJsonDepthLimit`) fails with 400.
 */
const parseBody = (
  request: HttpServerRequest.HttpServerRequest,
  bytes: Uint8Array,
  depthLimit: number | undefined,
): Effect.Effect<unknown, BadRequestError> => {
  if (bytes.byteLength === 0) return Effect.succeed(undefined);
  switch (bodyTypeOf((request.headers["content-type"] ?? "").toLowerCase())) {
    case "json": {
      const text = decoder.decode(bytes);
      return depthLimit === undefined
        ? Effect.flatMap(FiberRef.get(currentJsonDepthLimit), (limit) => parseJson(text, limit))
        : parseJson(text, depthLimit);
    }
    case "urlencoded":
      return Effect.succeed(Object.fromEntries(new URLSearchParams(decoder.decode(bytes))));
    case "text":
      return Effect.succeed(decoder.decode(bytes));
    case "raw":
      return Effect.succeed(bytes);
  }
};

/**
 * Reads and decodes a request body according to its `Content-Type`: JSON to a value,
 * `application/x-www-form-urlencoded` to a record, `text/*` to a string, anything else to
 * bytes. An empty body is `undefined`. Malformed JSON, or JSON nesting arrays and objects
 * deeper than `depthLimit` (by default `JsonDepth.currentJsonDepthLimit`, 1000), fails with
 * 400, a body over `limit` bytes (by its type, with a {@link bodyLimitByType}) with 413.
 *
 * @since 0.1.0
 * @category body
 */
export const readBody = (
  request: HttpServerRequest.HttpServerRequest,
  limit: BodyLimit = DEFAULT_BODY_LIMIT,
  depthLimit?: number,
): Effect.Effect<unknown, BadRequestError | PayloadTooLargeError> =>
  Effect.flatMap(readBytes(request, limit), (bytes) => parseBody(request, bytes, depthLimit));

/**
 * Like {@link readBody}, also giving the bytes as they arrived (`raw`, empty for an empty
 * body): what NestJS's `rawBody: true` keeps as `req.rawBody`.
 */
export const readBodyAndRaw = (
  request: HttpServerRequest.HttpServerRequest,
  limit: BodyLimit = DEFAULT_BODY_LIMIT,
  depthLimit?: number,
): Effect.Effect<
  { readonly body: unknown; readonly raw: Buffer },
  BadRequestError | PayloadTooLargeError
> =>
  Effect.flatMap(readBytes(request, limit), (bytes) =>
    Effect.map(parseBody(request, bytes, depthLimit), (body) => ({
      body,
      raw: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes),
    })),
  );
