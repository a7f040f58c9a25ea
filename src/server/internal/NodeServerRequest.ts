import type { IncomingMessage as NodeIncomingMessage, ServerResponse } from "node:http";
import * as Cookies from "@effect/platform/Cookies";
import type * as Headers from "@effect/platform/Headers";
import * as IncomingMessage from "@effect/platform/HttpIncomingMessage";
import type { HttpMethod } from "@effect/platform/HttpMethod";
import * as HttpServerError from "@effect/platform/HttpServerError";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as Multipart from "@effect/platform/Multipart";
import type * as Socket from "@effect/platform/Socket";
import * as UrlParams from "@effect/platform/UrlParams";
import * as NodeStream from "@effect/platform-node-shared/NodeStream";
import * as Effect from "effect/Effect";
import * as FiberRef from "effect/FiberRef";
import * as Inspectable from "effect/Inspectable";
import * as Option from "effect/Option";
import * as Stream from "effect/Stream";
import { currentJsonDepthLimit, parsedJsonExceedsDepth } from "../../http/internal/jsonDepth.js";

/** The multipart parser, imported on the first multipart request: most apps never need it. */
const loadNodeMultipart = Effect.promise(
  () => import("@effect/platform-node-shared/NodeMultipart"),
);

/**
 * `@effect/platform`'s `HttpServerRequest` over a node request, as lean as it can be: nothing
 * is computed until asked for (headers are node's own object, cookies parsed on first read,
 * bodies read on first use and cached). WebSocket upgrades are not offered by this server.
 */
export class NodeServerRequest
  extends Inspectable.Class
  implements HttpServerRequest.HttpServerRequest
{
  // On the prototype (below): two fewer properties to define on every request.
  declare readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId;
  declare readonly [IncomingMessage.TypeId]: IncomingMessage.TypeId;
  private cachedCookies: Readonly<Record<string, string>> | undefined;
  private cachedText: Effect.Effect<string, HttpServerError.RequestError> | undefined;
  private cachedMultipart:
    | Effect.Effect<Multipart.Persisted, Multipart.MultipartError, never>
    | undefined;

  /** The request as the server made it: copies made by `modify` share its state below. */
  readonly origin: NodeServerRequest;
  /** Whether the request's fiber has had to wait (its first run did not finish). */
  waited = false;
  /** A deadline to start once the fiber has had to wait (see `RequestDeadline`). */
  deadline: { arm(): void } | undefined = undefined;

  /**
   * `url` is the request target in its canonical form (see `canonicalTarget`): the server
   * routes it, and `originalUrl` (what middleware read) is the same value.
   */
  constructor(
    readonly source: NodeIncomingMessage,
    readonly response: ServerResponse,
    readonly url: string,
    private readonly headersOverride?: Headers.Headers,
    private readonly remoteAddressOverride?: string,
    origin?: NodeServerRequest,
  ) {
    super();
    this.origin = origin ?? this;
  }

  /** Called by the server when the request's fiber has had to wait: starts its deadline. */
  markWaited(): void {
    this.waited = true;
    this.deadline?.arm();
  }

  /**
   * Whether `url` is still the canonical target the server made the request with (a copy by
   * `modify` with another `url` is checked again where it matters, see `ServeRouter`).
   */
  hasCanonicalTarget(): boolean {
    return this.url === this.origin.url;
  }

  get originalUrl(): string {
    return this.origin.url;
  }

  get method(): HttpMethod {
    return this.source.method as HttpMethod;
  }

  get headers(): Headers.Headers {
    return this.headersOverride ?? (this.source.headers as Headers.Headers);
  }

  get cookies(): Readonly<Record<string, string>> {
    this.cachedCookies ??= Cookies.parseHeader(this.headers.cookie ?? "");
    return this.cachedCookies;
  }

  get remoteAddress(): Option.Option<string> {
    return Option.fromNullable(this.remoteAddressOverride ?? this.source.socket.remoteAddress);
  }

  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    this.cachedText ??= Effect.runSync(
      Effect.cached(
        Effect.flatMap(IncomingMessage.MaxBodySize, (maxBytes) =>
          NodeStream.toString(() => this.source, {
            onFailure: (cause) => this.decodeError(cause),
            maxBytes: Option.getOrUndefined(maxBytes),
          }),
        ),
      ),
    );
    return this.cachedText;
  }

  /** The body parsed, refused (400) when it nests deeper than `JsonDepth.currentJsonDepthLimit`. */
  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.flatMap(FiberRef.get(currentJsonDepthLimit), (depthLimit) =>
      Effect.tryMap(this.text, {
        try: (text) => {
          if (text === "") return null;
          const value: unknown = JSON.parse(text);
          if (parsedJsonExceedsDepth(text, value, depthLimit)) {
            throw new Error(`JSON body nested deeper than ${depthLimit} levels`);
          }
          return value;
        },
        catch: (cause) => this.decodeError(cause),
      }),
    );
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        try: () => UrlParams.fromInput(new URLSearchParams(text)),
        catch: (cause) => this.decodeError(cause),
      }),
    );
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return Effect.flatMap(IncomingMessage.MaxBodySize, (maxBytes) =>
      Effect.map(
        NodeStream.toUint8Array(() => this.source, {
          onFailure: (cause) => this.decodeError(cause),
          maxBytes: Option.getOrUndefined(maxBytes),
        }),
        (bytes) =>
          bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      ),
    );
  }

  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return NodeStream.fromReadable(
      () => this.source,
      (cause) => this.decodeError(cause),
    );
  }

  get multipart(): Effect.Effect<Multipart.Persisted, Multipart.MultipartError, never> {
    this.cachedMultipart ??= Effect.runSync(
      Effect.cached(
        Effect.flatMap(loadNodeMultipart, (NodeMultipart) =>
          NodeMultipart.persisted(this.source, this.source.headers),
        ),
      ),
    ) as Effect.Effect<Multipart.Persisted, Multipart.MultipartError, never>;
    return this.cachedMultipart;
  }

  get multipartStream(): Stream.Stream<Multipart.Part, Multipart.MultipartError> {
    return Stream.unwrap(
      Effect.map(loadNodeMultipart, (NodeMultipart) =>
        NodeMultipart.stream(this.source, this.source.headers),
      ),
    );
  }

  get upgrade(): Effect.Effect<Socket.Socket, HttpServerError.RequestError> {
    return Effect.fail(
      new HttpServerError.RequestError({
        request: this,
        reason: "Decode",
        description: "WebSocket upgrades need StrataServer.layerNodePlatform",
      }),
    );
  }

  modify(options: {
    readonly url?: string;
    readonly headers?: Headers.Headers;
    readonly remoteAddress?: string;
  }): HttpServerRequest.HttpServerRequest {
    return new NodeServerRequest(
      this.source,
      this.response,
      options.url ?? this.url,
      options.headers ?? this.headersOverride,
      options.remoteAddress ?? this.remoteAddressOverride,
      this.origin,
    );
  }

  toJSON(): unknown {
    return IncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpServerRequest",
      method: this.method,
      url: this.originalUrl,
    });
  }

  private decodeError(cause: unknown): HttpServerError.RequestError {
    return new HttpServerError.RequestError({ request: this, reason: "Decode", cause });
  }
}

Object.assign(NodeServerRequest.prototype, {
  [HttpServerRequest.TypeId]: HttpServerRequest.TypeId,
  [IncomingMessage.TypeId]: IncomingMessage.TypeId,
});
