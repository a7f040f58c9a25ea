/**
 * File uploads, for both faces: `multipart/form-data` parsed by `@effect/platform`'s
 * Multipart into memory (nothing is written to disk), within limits. Classic routes get the
 * files through `@UploadedFile` / `@UploadedFiles`, Effect routes through {@link read}.
 *
 * @since 0.1.0
 */
import type { IncomingMessage } from "node:http";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Multipart from "@effect/platform/Multipart";
import * as NodeStream from "@effect/platform-node/NodeStream";
import * as Chunk from "effect/Chunk";
import * as Effect from "effect/Effect";
import * as Stream from "effect/Stream";
import { BadRequestError, PayloadTooLargeError } from "../http/HttpError.js";
import { nodeSource } from "../http/NodeSource.js";
import type { UploadedFile } from "../http/UploadedFile.js";
import { isMultipart } from "./internal/isMultipart.js";

/**
 * Limits of one upload request; past any of them the request gets 413 in the standard error
 * shape, as soon as the part that passes it arrives (the rest of the body is not kept). All
 * sizes are bytes. `totalSize` bounds the memory a request holds: each part within its own
 * limit is not enough, file contents and field values together stay within it.
 *
 * @since 0.1.0
 * @category uploads
 */
export interface UploadLimits {
  /** Largest file (default 10 MB). */
  readonly fileSize?: number;
  /** Most files (default 10). */
  readonly files?: number;
  /** Most text fields (default 100). */
  readonly fields?: number;
  /** Largest text field (default 1 MB). */
  readonly fieldSize?: number;
  /**
   * Largest sum of every file's content and every field's value in one request (default
   * 50 MB, five files at the default size; the other defaults alone would let one request
   * hold 200 MB).
   */
  readonly totalSize?: number;
}

/** The default {@link UploadLimits}: 10 MB a file, 10 files, 100 fields of 1 MB, 50 MB in all. @since 0.1.0 @category uploads */
export const DEFAULT_UPLOAD_LIMITS: Required<UploadLimits> = {
  fileSize: 10 * 1024 * 1024,
  files: 10,
  fields: 100,
  fieldSize: 1024 * 1024,
  totalSize: 50 * 1024 * 1024,
};

/**
 * A parsed upload: the text fields (a repeated name gives an array) and the files, in the
 * order they were sent.
 *
 * @since 0.1.0
 * @category uploads
 */
export interface Upload {
  readonly fields: Readonly<Record<string, string | ReadonlyArray<string>>>;
  readonly files: ReadonlyArray<UploadedFile>;
}

/**
 * What a file part tells before its content is read (multer's `fileFilter` gets this shape).
 *
 * @since 0.1.0
 * @category uploads
 */
export interface FilePartInfo {
  readonly fieldname: string;
  readonly originalname: string;
  readonly mimetype: string;
}

/**
 * Which files an upload accepts (what NestJS's `FileInterceptor` family declares), checked as
 * each file part arrives, before its content is kept.
 *
 * @since 0.1.0
 * @category uploads
 */
export interface FileRules<E = never> {
  /**
   * The file fields accepted and the most files each; a file under another field, or one more
   * than its count, fails with 400 `Unexpected field - <name>` (multer's message). Without it,
   * any field.
   */
  readonly fields?: ReadonlyMap<string, number>;
  /** Keeps a file (`true`), skips it unread (`false`), or fails the request. */
  readonly filter?: (file: FilePartInfo) => Effect.Effect<boolean, E>;
}

const notMultipart = new BadRequestError("Expected a multipart/form-data request");
const malformed = new BadRequestError("Malformed multipart body");
const unreadable = new BadRequestError("Request body could not be read");

const fromMultipartError = (
  error: Multipart.MultipartError,
  limits: Required<UploadLimits>,
): BadRequestError | PayloadTooLargeError => {
  switch (error.reason) {
    case "FieldTooLarge":
      return new PayloadTooLargeError(`Field too large (at most ${limits.fieldSize} bytes)`);
    case "FileTooLarge":
      return new PayloadTooLargeError(`File too large (at most ${limits.fileSize} bytes)`);
    case "BodyTooLarge":
    case "TooManyParts":
      return new PayloadTooLargeError();
    case "Parse":
      return malformed;
    case "InternalError":
      return unreadable;
  }
};

const isMultipartError = (error: unknown): error is Multipart.MultipartError =>
  error instanceof Multipart.MultipartError;

const totalTooLarge = (limits: Required<UploadLimits>) =>
  new PayloadTooLargeError(`Upload too large (at most ${limits.totalSize} bytes in all)`);

/**
 * Reads one file into a buffer, failing as soon as it passes `limits.fileSize` bytes, or
 * `left`, what the request's `totalSize` leaves after the parts before it.
 */
const readFile = (
  file: Multipart.File,
  limits: Required<UploadLimits>,
  left: number,
): Effect.Effect<Buffer, PayloadTooLargeError | Multipart.MultipartError> =>
  Effect.suspend(() => {
    const chunks: Array<Uint8Array> = [];
    let size = 0;
    return Effect.map(
      Stream.runForEachChunk(file.content, (chunk) => {
        for (const bytes of Chunk.toReadonlyArray(chunk)) {
          size += bytes.byteLength;
          if (size > limits.fileSize) {
            return Effect.fail(
              new PayloadTooLargeError(`File too large (at most ${limits.fileSize} bytes)`),
            );
          }
          if (size > left) return Effect.fail(totalTooLarge(limits));
          chunks.push(bytes);
        }
        return Effect.void;
      }),
      () => Buffer.concat(chunks, size),
    );
  });

const readError = (cause: unknown) =>
  new Multipart.MultipartError({ reason: "InternalError", cause });

/**
 * The parts of the request body, parsed by `@effect/platform`'s Multipart parser. On node the
 * body is read without destroying the request when parsing stops early, so that the unread
 * rest can drain and the error response still reaches the client.
 */
const parts = (
  request: HttpServerRequest.HttpServerRequest,
  source: IncomingMessage | undefined,
): Stream.Stream<Multipart.Part, Multipart.MultipartError> =>
  Stream.pipeThroughChannel(
    source === undefined
      ? Stream.mapError(request.stream, readError)
      : NodeStream.fromReadable(() => source, readError, { closeOnDone: false }),
    Multipart.makeChannel(request.headers),
  );

const unexpected = (field: string) => new BadRequestError(`Unexpected field - ${field}`);

/**
 * Parses the `multipart/form-data` body of `request` within `limits`, keeping the files that
 * `rules` accept. Not multipart: 400; malformed: 400; over a limit: 413; a file `rules` do not
 * expect: 400. What was read is dropped with the failure. Every part with a file name is a
 * file, whatever its type (`application/json` included).
 */
export const readUpload = <E = never>(
  request: HttpServerRequest.HttpServerRequest,
  limits: Required<UploadLimits>,
  rules: FileRules<E> = {},
): Effect.Effect<Upload, BadRequestError | PayloadTooLargeError | E> => {
  if (!isMultipart(request)) return Effect.fail(notMultipart);
  return Effect.suspend(() => {
    const fields = new Map<string, string | Array<string>>();
    const files: Array<UploadedFile> = [];
    const perField = new Map<string, number>();
    let fieldCount = 0;
    let total = 0; // bytes of file contents and field values kept so far
    const keep = (file: Multipart.File) =>
      Effect.map(readFile(file, limits, limits.totalSize - total), (buffer) => {
        total += buffer.byteLength;
        files.push({
          fieldname: file.key,
          filename: file.name,
          originalname: file.name,
          size: buffer.byteLength,
          mimetype: file.contentType,
          buffer,
        });
      });
    const onPart = (
      part: Multipart.Part,
    ): Effect.Effect<
      void,
      BadRequestError | PayloadTooLargeError | Multipart.MultipartError | E
    > => {
      if (Multipart.isField(part)) {
        fieldCount++;
        if (fieldCount > limits.fields) {
          return Effect.fail(
            new PayloadTooLargeError(`Too many fields (at most ${limits.fields})`),
          );
        }
        total += Buffer.byteLength(part.value);
        if (total > limits.totalSize) return Effect.fail(totalTooLarge(limits));
        const existing = fields.get(part.key);
        if (existing === undefined) fields.set(part.key, part.value);
        else if (typeof existing === "string") fields.set(part.key, [existing, part.value]);
        else existing.push(part.value);
        return Effect.void;
      }
      const file = part as Multipart.File;
      if (rules.fields !== undefined) {
        const count = (perField.get(file.key) ?? 0) + 1;
        if (count > (rules.fields.get(file.key) ?? 0)) return Effect.fail(unexpected(file.key));
        perField.set(file.key, count);
      }
      if (files.length >= limits.files) {
        return Effect.fail(new PayloadTooLargeError(`Too many files (at most ${limits.files})`));
      }
      if (rules.filter === undefined) return keep(file);
      const info = { fieldname: file.key, originalname: file.name, mimetype: file.contentType };
      return Effect.flatMap(rules.filter(info), (accepted) =>
        accepted ? keep(file) : Stream.runDrain(file.content),
      );
    };
    const source = nodeSource(request);
    return Stream.runForEach(parts(request, source), onPart).pipe(
      Multipart.withLimits({ maxFieldSize: limits.fieldSize, fieldMimeTypes: [] }),
      Effect.catchIf(isMultipartError, (error) => Effect.fail(fromMultipartError(error, limits))),
      Effect.map((): Upload => ({ fields: Object.fromEntries(fields), files })),
      Effect.onError(() => Effect.sync(() => source?.resume())),
    );
  });
};

/**
 * The Effect face of uploads: parses the current request's `multipart/form-data` body within
 * `limits` (each defaulting to {@link DEFAULT_UPLOAD_LIMITS}).
 *
 * @example
 * const upload = HttpLayerRouter.add(
 *   "POST",
 *   "/upload",
 *   Effect.gen(function* () {
 *     const { files, fields } = yield* Uploads.read({ fileSize: 1024 * 1024 });
 *     return jsonResponse({ files: files.map((file) => file.originalname), fields });
 *   }),
 * );
 *
 * @since 0.1.0
 * @category uploads
 */
export const read = (
  limits: UploadLimits = {},
): Effect.Effect<
  Upload,
  BadRequestError | PayloadTooLargeError,
  HttpServerRequest.HttpServerRequest
> => {
  const resolved = { ...DEFAULT_UPLOAD_LIMITS, ...limits };
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    readUpload(request, resolved),
  );
};
