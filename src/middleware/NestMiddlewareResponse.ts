import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import type { MiddlewareContext } from "./StrataMiddleware.js";

/** A header value as Express's `res.setHeader` takes it. */
type HeaderValue = string | number;

/**
 * What a {@link NestMiddleware} receives as `res`: the subset of Express's response that
 * middleware use. It adds headers to the response, learns its status once ready
 * (`res.on("finish", ...)`), and answers the request itself (`res.send`, `res.json`,
 * `res.end`): the answer is the response, and the route handler never runs. Only the first
 * answer counts; `next()` after it does nothing.
 *
 * @example
 * const maintenance = (_req: NestMiddlewareRequest, res: NestMiddlewareResponse) => {
 *   res.setHeader("Retry-After", "120");
 *   res.status(503).json({ message: "Down for maintenance" });
 * };
 *
 * @since 0.1.0
 * @category middleware
 */
export interface NestMiddlewareResponse {
  /**
   * The response's status: what `status()` set, else the route's once known (in a `"finish"`
   * listener), else `200`. Assigning it sets the status of the answer.
   */
  statusCode: number;
  /** Whether the response is decided: answered here, or the rest of the app has answered. */
  readonly headersSent: boolean;
  /** Sets the status of the answer (`res.status(201).end("done")`). */
  status(code: number): this;
  /** Adds a header to the response, whatever it is. */
  setHeader(name: string, value: HeaderValue): this;
  /** The same as `setHeader`; `set` also takes several headers at once. */
  header(name: string, value: HeaderValue): this;
  /** Adds one header, or each of a record's. */
  set(name: string | Readonly<Record<string, HeaderValue>>, value?: HeaderValue): this;
  /** A header set on this `res` (any case). */
  getHeader(name: string): string | undefined;
  /**
   * Answers with `body`: a string as `text/html`, a `Buffer`/`Uint8Array` as
   * `application/octet-stream`, anything else as JSON (a `Content-Type` set before wins).
   */
  send(body?: unknown): this;
  /** Answers with `body` as JSON. */
  json(body?: unknown): this;
  /** Answers with `chunk` (a string or bytes) as is, or with an empty body. */
  end(chunk?: string | Uint8Array): this;
  /** `listener` runs once the response is ready (`"finish"` and `"close"` alike). */
  on(event: "finish" | "close", listener: () => void): this;
}

const encoder = new TextEncoder();

const isBytes = (value: unknown): value is Uint8Array => value instanceof Uint8Array;

/** What makes the `res` of one NestJS middleware call, and learns of its answer. */
export interface MiddlewareResponseOptions {
  readonly context: MiddlewareContext;
  /** Called once, with the response the middleware answered with. */
  readonly answer: (response: HttpServerResponse.HttpServerResponse) => void;
  /** Whether the rest of the app has answered (after `next()` resolved). */
  readonly finished: () => boolean;
  /** Where `on("finish" | "close", ...)` listeners go. */
  readonly listeners: Array<() => void>;
}

/** The Express-like `res` of one NestJS middleware call. */
export const makeMiddlewareResponse = ({
  context,
  answer,
  finished,
  listeners,
}: MiddlewareResponseOptions): NestMiddlewareResponse => {
  const headers = new Map<string, string>();
  let status: number | undefined;
  let answered = false;
  /** Answers once with `bytes` (none: an empty body) of `contentType` (none: as set, if set). */
  const reply = (bytes: Uint8Array | undefined, contentType: string | undefined) => {
    if (answered || finished()) return;
    answered = true;
    const type = headers.get("content-type") ?? contentType;
    const options = { status: status ?? 200, contentType: type };
    answer(
      bytes === undefined
        ? HttpServerResponse.empty({ status: options.status })
        : type === undefined
          ? HttpServerResponse.raw(bytes, options)
          : HttpServerResponse.uint8Array(bytes, options),
    );
  };
  const json = (body: unknown) => {
    const text = JSON.stringify(body);
    return text === undefined ? undefined : encoder.encode(text);
  };
  const res: NestMiddlewareResponse = {
    get statusCode() {
      return status ?? context.status ?? 200;
    },
    set statusCode(code: number) {
      res.status(code);
    },
    get headersSent() {
      return answered || finished();
    },
    status(code) {
      if (!Number.isInteger(code) || code < 100 || code > 999) {
        throw new TypeError(`res.status(${String(code)}): a status is an integer from 100 to 999`);
      }
      status = code;
      return this;
    },
    setHeader(name, value) {
      const text = String(value);
      headers.set(name.toLowerCase(), text);
      context.setHeader(name, text);
      return this;
    },
    header(name, value) {
      return this.setHeader(name, value);
    },
    set(name, value) {
      if (typeof name === "string") return this.setHeader(name, value ?? "");
      for (const [key, one] of Object.entries(name)) this.setHeader(key, one);
      return this;
    },
    getHeader(name) {
      return headers.get(name.toLowerCase());
    },
    send(body) {
      if (body === undefined || body === null) reply(undefined, undefined);
      else if (typeof body === "string") reply(encoder.encode(body), "text/html; charset=utf-8");
      else if (isBytes(body)) reply(body, "application/octet-stream");
      else reply(json(body), "application/json; charset=utf-8");
      return this;
    },
    json(body) {
      reply(json(body), "application/json; charset=utf-8");
      return this;
    },
    end(chunk) {
      reply(typeof chunk === "string" ? encoder.encode(chunk) : chunk, undefined);
      return this;
    },
    on(_event, listener) {
      listeners.push(listener);
      return this;
    },
  };
  return res;
};
