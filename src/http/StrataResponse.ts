import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Deferred from "effect/Deferred";
import type * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as FiberId from "effect/FiberId";
import { isHeaderName, isSafeHeaderValue } from "./HandlerResponse.js";
import { InternalServerError } from "./HttpError.js";

/**
 * The response a handler writes by hand when it takes `@Res()` (and that an exception
 * filter writes through `host.switchToHttp().getResponse()`), in the style of express.
 * Nothing is sent until `json`, `send`, `redirect` or `end` is called. Header names and values
 * are checked: a CR or LF (response splitting) is refused with a 500.
 *
 * @since 0.1.0
 * @category request
 */
export class StrataResponse {
  statusCode = 200;
  /**
   * Whether `status()` was called: a status a guard or an interceptor set is the status of the
   * handler's response, as in NestJS.
   */
  statusSet = false;
  private readonly headerMap: Record<string, string> = {};
  private readonly done = Deferred.unsafeMake<HttpServerResponse.HttpServerResponse>(FiberId.none);
  private isSent = false;

  /** Sets the status code. */
  status(statusCode: number): this {
    this.statusCode = statusCode;
    this.statusSet = true;
    return this;
  }

  /** Sets a header (name case-insensitive). */
  setHeader(name: string, value: string | number): this {
    const text = String(value);
    if (!isHeaderName(name) || !isSafeHeaderValue(text)) {
      throw new InternalServerError();
    }
    this.headerMap[name.toLowerCase()] = text;
    return this;
  }

  /** Alias of {@link StrataResponse.setHeader}. */
  header(name: string, value: string | number): this {
    return this.setHeader(name, value);
  }

  /** The value of a header set so far. */
  getHeader(name: string): string | undefined {
    return this.headerMap[name.toLowerCase()];
  }

  /** Every header set so far (lower-case names). */
  getHeaders(): Readonly<Record<string, string>> {
    return this.headerMap;
  }

  /** `true` once the response has been sent. */
  get sent(): boolean {
    return this.isSent;
  }

  /** Sends `body` as JSON. */
  json(body: unknown): void {
    this.finish(
      HttpServerResponse.text(JSON.stringify(body) ?? "null", {
        status: this.statusCode,
        headers: this.headerMap,
        contentType: "application/json",
      }),
    );
  }

  /** Sends a string as text, bytes as binary, anything else as JSON. */
  send(body?: unknown): void {
    if (body === undefined) {
      this.end();
    } else if (typeof body === "string") {
      const contentType = this.headerMap["content-type"] ?? "text/plain; charset=utf-8";
      this.finish(
        HttpServerResponse.text(body, {
          status: this.statusCode,
          headers: this.headerMap,
          contentType,
        }),
      );
    } else if (body instanceof Uint8Array) {
      this.finish(
        HttpServerResponse.uint8Array(body, { status: this.statusCode, headers: this.headerMap }),
      );
    } else {
      this.json(body);
    }
  }

  /** Redirects to `url` (302 unless given). */
  redirect(url: string, statusCode = 302): void {
    this.status(statusCode).setHeader("location", url);
    this.end();
  }

  /** Sends the status and headers with no body. */
  end(): void {
    this.finish(HttpServerResponse.empty({ status: this.statusCode, headers: this.headerMap }));
  }

  /** Completes with the response once something was sent. */
  get response(): Effect.Effect<HttpServerResponse.HttpServerResponse> {
    return Deferred.await(this.done);
  }

  private finish(response: HttpServerResponse.HttpServerResponse): void {
    if (this.isSent) throw new Error("The response was already sent");
    this.isSent = true;
    Deferred.unsafeDone(this.done, Exit.succeed(response));
  }
}
