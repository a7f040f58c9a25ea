import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import type * as Scope from "effect/Scope";
import { errorResponse } from "../core/ErrorResponse.js";
import { ForbiddenError } from "../core/HttpError.js";
import type { StartupError } from "../di/StartupError.js";
import { EffectMiddleware } from "./EffectMiddleware.js";
import * as Middleware from "./Middleware.js";
import { isHttps, prefixMatcher, requestPath, type TrustProxy } from "./RequestInfo.js";

/**
 * Options of {@link make} and {@link CsrfMiddleware}.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface CsrfOptions {
  /**
   * The key tokens are signed with. Give the same one to every instance (from config, kept
   * `Redacted`); without one, a random key per process is used and a warning logged: tokens
   * then die with the process and are not accepted by other instances.
   */
  readonly secret?: string | Redacted.Redacted<string>;
  /**
   * What binds a token to its client: return the client's session id (or user id). A token
   * minted for one session is refused for any other. Without it, a token is bound only to the
   * cookie it came in (plain signed double submit).
   */
  readonly identify?: (request: HttpServerRequest.HttpServerRequest) => string | undefined;
  /** The cookie holding the token (default `csrf-token`; `__Host-csrf-token` on https). */
  readonly cookieName?: string;
  /** The header a client sends the token back in (default `x-csrf-token`). */
  readonly headerName?: string;
  /** Methods that need no token (default `GET`, `HEAD`, `OPTIONS`). */
  readonly ignoreMethods?: ReadonlyArray<string>;
  /** Path prefixes that need no token (webhooks, say): `/hooks` covers `/hooks/...`. */
  readonly excludePaths?: ReadonlyArray<string>;
  /** `SameSite` of the cookie (default `strict`). */
  readonly sameSite?: "strict" | "lax";
  /** Marks the cookie `Secure` (and names it `__Host-...`); default: on https requests. */
  readonly secure?: boolean;
  /** Believe `X-Forwarded-Proto` to tell https requests (default false). */
  readonly trustProxy?: TrustProxy;
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/**
 * CSRF protection as an Effect `HttpMiddleware`: a signed double-submit token bound to the
 * client. A safe request (`GET`, `HEAD`, `OPTIONS`) without a valid token cookie gets one
 * (readable by scripts, `SameSite=Strict`, `Path=/`, `Secure` and `__Host-` on https); any other
 * request must send the cookie's value back in the `x-csrf-token` header. The token is
 * `nonce.HMAC(key, binding, nonce)`, so it cannot be forged without the key, and with
 * `identify` it is bound to the session: a token minted for one client is refused for another.
 * A missing, altered, foreign or mismatched token answers 403 `Invalid CSRF token` in the
 * standard error shape (with a fresh cookie when the old one was invalid).
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (
  options: CsrfOptions = {},
): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError> =>
  Effect.gen(function* () {
    // Loaded here, when CSRF is set up: an app without it never loads node:crypto (~1.5 ms).
    const { createHmac, randomBytes, timingSafeEqual } = process.getBuiltinModule("node:crypto");
    const sameLength = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
    let key: Buffer;
    if (options.secret === undefined) {
      key = randomBytes(32);
      yield* Effect.logWarning(
        "CSRF: no secret configured; a random per-process key is used (tokens do not survive a restart nor work across instances)",
      );
    } else {
      key = Buffer.from(
        Redacted.isRedacted(options.secret) ? Redacted.value(options.secret) : options.secret,
      );
    }
    const baseName = options.cookieName ?? "csrf-token";
    const headerName = (options.headerName ?? "x-csrf-token").toLowerCase();
    const safe = new Set(
      (options.ignoreMethods ?? ["GET", "HEAD", "OPTIONS"]).map((m) => m.toUpperCase()),
    );
    const excluded = (options.excludePaths ?? []).map(prefixMatcher);
    const sameSite = options.sameSite ?? "strict";
    const trustProxy = options.trustProxy ?? false;
    const forbidden = errorResponse(new ForbiddenError("Invalid CSRF token"));

    const sign = (binding: string, nonce: string) =>
      createHmac("sha256", key).update(`${binding.length}:${binding}:${nonce}`).digest();
    const mint = (binding: string) => {
      const nonce = base64url(randomBytes(18));
      return `${nonce}.${base64url(sign(binding, nonce))}`;
    };
    const verify = (token: string, binding: string) => {
      const dot = token.indexOf(".");
      if (dot <= 0) return false;
      return sameLength(
        Buffer.from(token.slice(dot + 1), "base64url"),
        sign(binding, token.slice(0, dot)),
      );
    };
    const issue = (
      response: HttpServerResponse.HttpServerResponse,
      name: string,
      binding: string,
      secure: boolean,
    ) =>
      HttpServerResponse.unsafeSetCookie(response, name, mint(binding), {
        path: "/",
        sameSite,
        secure,
        httpOnly: false,
      });

    return Middleware.make((app) =>
      Middleware.withRequest((request) => {
        if (excluded.length > 0) {
          const path = requestPath(request);
          if (excluded.some((matches) => matches(path))) return app;
        }
        const secure = options.secure ?? isHttps(request, trustProxy);
        const name = secure ? `__Host-${baseName}` : baseName;
        const binding = options.identify?.(request) ?? "";
        const cookie = request.cookies[name];
        const valid = cookie !== undefined && verify(cookie, binding);
        if (safe.has(request.method)) {
          return valid
            ? app
            : Effect.map(app, (response) => issue(response, name, binding, secure));
        }
        const header: unknown = request.headers[headerName];
        if (
          valid &&
          typeof header === "string" &&
          sameLength(Buffer.from(header), Buffer.from(cookie))
        ) {
          return app;
        }
        return Effect.succeed(valid ? forbidden : issue(forbidden, name, binding, secure));
      }),
    );
  });

/**
 * CSRF protection, the classic way:
 * `app.use(new CsrfMiddleware({ secret, identify: (request) => request.cookies.sid }))`.
 * See {@link make}.
 *
 * @since 0.1.0
 * @category middleware
 */
export class CsrfMiddleware extends EffectMiddleware {
  constructor(readonly options: CsrfOptions = {}) {
    super();
  }

  build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return make(this.options);
  }
}
