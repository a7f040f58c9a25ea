/**
 * Options of `Cors.make` and `CorsMiddleware` (and of NestJS's `app.enableCors`): those
 * of the `cors` package, but that `origin` is matched exactly, never a function, a RegExp or
 * `true`. Anything else (an unknown option, a value of the wrong type) fails the start.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface CorsOptions {
  /**
   * The origins allowed to read responses: a list, matched exactly (`https://app.example.com`, no
   * path, no trailing slash; only a listed origin is echoed); one string, sent as it is (the `cors`
   * package's way; the browser compares it) to requests without an `Origin` or from that origin,
   * `"null"` refused; or `"*"` for any (the default), which cannot be combined with `credentials`.
   */
  readonly origin?: string | ReadonlyArray<string>;
  /**
   * Methods a preflight allows (default `GET, HEAD, PUT, PATCH, POST, DELETE`): a list, or one
   * string sent as it is (`"GET,POST"`), as the `cors` package takes them.
   */
  readonly methods?: string | ReadonlyArray<string>;
  /** Request headers a preflight allows (default: those the preflight asks for); a list or a string. */
  readonly allowedHeaders?: string | ReadonlyArray<string>;
  /** Response headers the browser may expose to scripts (default: none beyond the safelisted); a list or a string. */
  readonly exposedHeaders?: string | ReadonlyArray<string>;
  /** Allows cookies and HTTP authentication (`Access-Control-Allow-Credentials: true`); default false. */
  readonly credentials?: boolean;
  /** How long, in seconds, a browser may cache a preflight (default: not sent). */
  readonly maxAge?: number;
  /** The status of a preflight's answer (default 204; 200 for old browsers that need it). */
  readonly optionsSuccessStatus?: number;
}

/**
 * What a {@link CorsOptionsDelegate} sees of a request.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface CorsRequest {
  readonly method: string;
  /** The URL as the client sent it, query string included. */
  readonly url: string;
  /** Request headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string | undefined>>;
}

/**
 * CORS options decided per request, as the `cors` package (and NestJS's `enableCors`) takes
 * them: `(req, callback) => callback(null, options)`. An error given to `callback`, or options
 * that are not valid, answer that request 500.
 *
 * @since 0.1.0
 * @category middleware
 */
export type CorsOptionsDelegate = (
  req: CorsRequest,
  callback: (error: Error | null, options?: CorsOptions) => void,
) => void;
