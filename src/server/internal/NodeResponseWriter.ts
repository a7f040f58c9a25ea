import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as Cookies from "@effect/platform/Cookies";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Chunk from "effect/Chunk";
import * as Effect from "effect/Effect";
import * as Stream from "effect/Stream";

const internalError = JSON.stringify({ statusCode: 500, message: "Internal Server Error" });

/**
 * Answers a bare 500 when the response itself cannot be written (a header node refuses, such as
 * one carrying CR or LF): never a split or half-written response.
 */
const writeFailure = (res: ServerResponse, cause: unknown): Effect.Effect<void> => {
  if (!res.headersSent) {
    res.writeHead(500, {
      "content-type": "application/json",
      "content-length": internalError.length,
    });
    res.end(internalError);
  } else if (!res.writableEnded) {
    res.destroy();
  }
  return Effect.logError("The response could not be written, answered 500", cause);
};

const headersOf = (response: HttpServerResponse.HttpServerResponse) => {
  if (Cookies.isEmpty(response.cookies)) return response.headers;
  const setCookie = Cookies.toSetCookieHeaders(response.cookies);
  const existing = response.headers["set-cookie"];
  if (existing !== undefined) setCookie.push(existing);
  return { ...response.headers, "set-cookie": setCookie };
};

const writeStream = (res: ServerResponse, stream: Stream.Stream<Uint8Array, unknown>) => {
  const drained = Effect.unsafeMakeLatch();
  const onDrain = () => drained.unsafeOpen();
  res.on("drain", onDrain);
  return stream.pipe(
    Stream.runForEachChunk((chunk) => {
      let blocked = false;
      for (const bytes of Chunk.toReadonlyArray(chunk)) blocked = !res.write(bytes);
      if (!blocked) return Effect.void;
      drained.unsafeClose();
      return drained.await;
    }),
    Effect.interruptible,
    Effect.matchCauseEffect({
      onSuccess: () => Effect.sync(() => res.end()),
      onFailure: (cause) => writeFailure(res, cause),
    }),
    Effect.ensuring(Effect.sync(() => res.off("drain", onDrain))),
  );
};

/**
 * Writes a platform response to a node response. Single-buffer bodies (empty, string, bytes)
 * are written at once, when this is called, and the returned Effect is `Effect.void`: nothing
 * waits for the socket to flush. Streams return the Effect that writes them with backpressure
 * (`drain`). HEAD requests get headers only.
 */
export const writeNodeResponse = (
  res: ServerResponse,
  method: string,
  response: HttpServerResponse.HttpServerResponse,
): Effect.Effect<void> => {
  if (res.writableEnded) return Effect.void;
  const body = response.body;
  try {
    if (body._tag === "FormData") {
      const web = new Response(body.formData);
      res.writeHead(response.status, {
        ...headersOf(response),
        ...Object.fromEntries(web.headers),
      });
      if (method === "HEAD" || web.body === null) {
        res.end();
        return Effect.void;
      }
      const stream = web.body as ReadableStream<Uint8Array>;
      return writeStream(
        res,
        Stream.fromReadableStream({ evaluate: () => stream, onError: (e) => e }),
      );
    }
    res.writeHead(response.status, headersOf(response));
    if (method === "HEAD") {
      res.end();
      return Effect.void;
    }
    switch (body._tag) {
      case "Empty":
        res.end();
        return Effect.void;
      case "Uint8Array":
        res.end(body.body);
        return Effect.void;
      case "Raw": {
        const raw = body.body;
        if (typeof raw === "string" || raw instanceof Uint8Array) {
          res.end(raw);
          return Effect.void;
        }
        if (raw instanceof Readable) {
          return Effect.tryPromise((signal) => pipeline(raw, res, { signal })).pipe(
            Effect.interruptible,
            Effect.catchAllCause((cause) => writeFailure(res, cause)),
          );
        }
        res.end(raw === undefined || raw === null ? undefined : String(raw));
        return Effect.void;
      }
      case "Stream":
        return writeStream(res, body.stream);
    }
  } catch (cause) {
    return writeFailure(res, cause);
  }
};
