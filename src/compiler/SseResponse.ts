import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Chunk from "effect/Chunk";
import * as Effect from "effect/Effect";
import * as Stream from "effect/Stream";
import type { MessageEvent } from "../decorators/Sse.js";
import { isHttpError } from "../http/HttpError.js";
import { isObservable, type SubscribableResult } from "../http/ObservableResult.js";
import { isThenable } from "../http/UserCode.js";

const encoder = new TextEncoder();

const lines = (value: string, prefix: string): string =>
  value
    .split(/\r\n|\r|\n/)
    .map((line) => `${prefix}${line}\n`)
    .join("");

/** A header-like field of an event: CR and LF removed, so a value cannot start another field. */
const field = (name: string, value: string | number): string =>
  `${name}: ${String(value).replace(/[\r\n]/g, "")}\n`;

/**
 * The wire form of one event (the W3C event-stream format); an event without an `id` (but for
 * a lone comment) takes the next number, as NestJS numbers them.
 */
const encode = (message: MessageEvent, nextId: () => number): Uint8Array => {
  let text = "";
  if (message.type !== undefined) text += field("event", message.type);
  const commentOnly =
    message.comment !== undefined &&
    message.data === undefined &&
    message.type === undefined &&
    message.retry === undefined;
  if (message.id !== undefined) text += field("id", message.id);
  else if (!commentOnly) text += field("id", nextId());
  if (message.retry !== undefined) text += field("retry", message.retry);
  if (message.comment !== undefined) text += lines(message.comment, ": ");
  if (message.data !== undefined) {
    text += lines(
      typeof message.data === "object" ? JSON.stringify(message.data) : message.data,
      "data: ",
    );
  }
  return encoder.encode(`${text}\n`);
};

const asMessage = (value: unknown): MessageEvent =>
  typeof value === "object" && value !== null ? (value as MessageEvent) : { data: String(value) };

/** The events of `observable`; an error ends them with an `error` event. */
const events = (observable: SubscribableResult): Stream.Stream<Uint8Array> =>
  Stream.async<Uint8Array>((emit) => {
    let id = 0;
    const nextId = () => ++id;
    const subscription = observable.subscribe({
      next: (value) => emit.single(encode(asMessage(value), nextId)),
      error: (error) => {
        const data = isHttpError(error) ? error.message : "Internal Server Error";
        const event = Effect.succeed(Chunk.of(encode({ type: "error", data }, nextId)));
        emit(
          isHttpError(error)
            ? event
            : Effect.zipRight(
                Effect.logError("Server-sent events failed", Cause.fail(error)),
                event,
              ),
        );
        emit.end();
      },
      complete: () => emit.end(),
    });
    return Effect.sync(() => subscription.unsubscribe());
  });

const headers = {
  "cache-control": "private, no-cache, no-store, must-revalidate, max-age=0, no-transform",
  connection: "keep-alive",
  pragma: "no-cache",
  expire: "0",
  "x-accel-buffering": "no",
};

const notObservable = () =>
  new ReferenceError("You must return an Observable stream to use Server-Sent Events (SSE).");

/** Waits for a Promise or an Effect, without reading an Observable it gives (unlike `fromResult`). */
const settled = (value: unknown): Effect.Effect<unknown, unknown> => {
  if (Effect.isEffect(value)) return value as Effect.Effect<unknown, unknown>;
  if (isThenable(value)) return Effect.tryPromise({ try: () => value, catch: (error) => error });
  return Effect.succeed(value);
};

/**
 * The `text/event-stream` response of an `@Sse()` route, from what its handler (through its
 * interceptors) returned: an Observable, or a Promise or Effect of one; anything else is a
 * failure (500), as in NestJS.
 */
export const sseResponse = (
  result: unknown,
  extraHeaders: Readonly<Record<string, string>> | undefined,
): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> =>
  Effect.flatMap(settled(result), (value) =>
    isObservable(value)
      ? Effect.succeed(
          HttpServerResponse.stream(events(value), {
            contentType: "text/event-stream",
            headers: { ...extraHeaders, ...headers },
          }),
        )
      : Effect.fail(notObservable()),
  );
