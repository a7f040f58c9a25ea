import { ReadStream } from "node:fs";
import { Readable } from "node:stream";
import * as Effect from "effect/Effect";
import { BadRequestError } from "./HttpError.js";

const unreadable = new BadRequestError("The file could not be read");

/**
 * The headers a {@link StreamableFile} sets: `type` (default `application/octet-stream`),
 * `disposition` (e.g. `attachment; filename="report.pdf"`) and `length` in bytes.
 *
 * @since 0.1.0
 * @category response
 */
export interface StreamableFileOptions {
  readonly type?: string;
  readonly disposition?: string;
  readonly length?: number;
}

/**
 * NestJS's `StreamableFile`: returned from a handler, its bytes are the response body, streamed
 * from a `Readable` (with backpressure) or sent from a `Buffer`/`Uint8Array`, with the headers of
 * its options (a `@Header()` of the same name wins). Interceptors see it as it is.
 *
 * @example
 * import { createReadStream } from "node:fs";
 * import { Controller, Get, StreamableFile } from "effect-strata";
 *
 * @Controller("reports")
 * class ReportsController {
 *   @Get("latest")
 *   report() {
 *     return new StreamableFile(createReadStream("report.pdf"), {
 *       type: "application/pdf",
 *       disposition: 'attachment; filename="report.pdf"',
 *     });
 *   }
 * }
 *
 * @since 0.1.0
 * @category response
 */
export class StreamableFile {
  private readonly stream: Readable | undefined;

  constructor(
    private readonly bytes: Uint8Array | Readable,
    readonly options: StreamableFileOptions = {},
  ) {
    this.stream = bytes instanceof Readable ? bytes : undefined;
  }

  /** The content as a `Readable` (a Buffer is wrapped in one). */
  getStream(): Readable {
    return this.stream ?? Readable.from([this.bytes]);
  }

  /**
   * Succeeds once the content can be sent: at once, but for a file stream still opening
   * (`createReadStream(path)`), which it waits for; a file that cannot be opened (missing,
   * not readable) fails with 400 (as NestJS answers it), its path kept out of the answer.
   */
  opened(): Effect.Effect<void, BadRequestError> {
    const stream = this.stream;
    if (!(stream instanceof ReadStream) || !stream.pending) return Effect.void;
    return Effect.async<void, BadRequestError>((resume) => {
      const onReady = () => {
        stream.off("error", onError);
        resume(Effect.void);
      };
      const onError = () => {
        stream.off("ready", onReady);
        resume(Effect.fail(unreadable));
      };
      stream.once("ready", onReady);
      stream.once("error", onError);
      return Effect.sync(() => {
        stream.off("ready", onReady);
        stream.off("error", onError);
        stream.destroy();
      });
    });
  }

  /** The content as bytes when it was given as bytes, else `undefined` (a stream). */
  getBytes(): Uint8Array | undefined {
    return this.stream === undefined ? (this.bytes as Uint8Array) : undefined;
  }

  /** `type`, `disposition` and `length` as NestJS reports them (type defaulted). */
  getHeaders(): {
    readonly type: string;
    readonly disposition: string | undefined;
    readonly length: number | undefined;
  } {
    const { type = "application/octet-stream", disposition, length } = this.options;
    return {
      type,
      disposition,
      length:
        length ?? (this.stream === undefined ? (this.bytes as Uint8Array).byteLength : undefined),
    };
  }
}
