import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import { StartupError } from "../di/StartupError.js";
import { errorResponse } from "../http/ErrorResponse.js";
import { ForbiddenError } from "../http/HttpError.js";
import * as Middleware from "./Middleware.js";
import { isHttps, prefixMatcher, requestPath, type TrustProxy } from "./RequestInfo.js";
import { make as parseTrustProxy } from "./TrustProxy.js";

/**
 * Options of {@link make} and {@link CsrfMiddleware}.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface CsrfOptions {
  /**
   * The key tokens are signed with, at least 32 bytes (a shorter one fails the start). Give the
   * same one to every instance (from config, kept `Redacted`); without one, a random 32-byte key
   * per process is used and a warning logged: tokens then die with the process and are not
   * accepted by other instances.
   */
  readonly secret?: string | Redacted.Redacted<string>;
  /**
   * What binds a token to its client: return the client's session id (or user id). A token
   * minted for one session is refused for any other. Without it (or when it returns
   * `undefined` or `""`), a token is bound to a random per-client value kept in a signed
   * HttpOnly cookie (`clientCookieName`).
   */
  readonly identify?: (request: HttpServerRequest.HttpServerRequest) => string | undefined;
  /** The cookie holding the token (default `csrf-token`; `__Host-csrf-token` on https). */
  readonly cookieName?: string;
  /**
   * The HttpOnly cookie holding the signed per-client value tokens are bound to when there is
   * no session (default `csrf-client`; `__Host-csrf-client` on https).
   */
  readonly clientCookieName?: string;
  /** The header a client sends the token back in (default `x-csrf-token`). */
  readonly headerName?: string;
  /** Methods that need no token (default `GET`, `HEAD`, `OPTIONS`). */
  readonly ignoreMethods?: ReadonlyArray<string>;
  /** Path prefixes that need no token (webhooks, say): `/hooks` covers `/hooks/...`. */
  readonly excludePaths?: ReadonlyArray<string>;
  /** `SameSite` of the cookies (default `strict`). */
  readonly sameSite?: "strict" | "lax";
  /** Marks the cookies `Secure` (and names them `__Host-...`); default: on https requests. */
  readonly secure?: boolean;
  /** Believe `X-Forwarded-Proto` to tell https requests (default false). */
  readonly trustProxy?: TrustProxy;
}

/** The shortest secret accepted, in bytes: as long as an HMAC-SHA256 key should be. */
const MIN_SECRET_BYTES = 32;

/** What a client cookie's HMAC is over, besides its value: never taken for a token's. */
const CLIENT_PURPOSE = "csrf-client";

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/**
 * CSRF protection as an Effect `HttpMiddleware`: a signed double-submit token bound to the
 * client. A safe request (`GET`, `HEAD`, `OPTIONS`) without a valid token cookie gets one
 * (readable by scripts, `SameSite=Strict`, `Path=/`, `Secure` and `__Host-` on https); any other
 * request must send the cookie's value back in the `x-csrf-token` header. The token is
 * `nonce.HMAC(key, binding, nonce)`, so it cannot be forged without the key; the binding is the
 * session id from `identify` or, without one, a random per-client value in a signed HttpOnly
 * cookie (`csrf-client`, as double-submit libraries such as csrf-csrf do), so a token minted for
 * one client is refused for another, with that client's cookies or with its own.
 * A missing, altered, foreign or mismatched token answers 403 `Invalid CSRF token` in the
 * standard error shape (with fresh cookies when the old ones were invalid). A `secret` shorter
 * than 32 bytes is a startup error.
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
      key = randomBytes(MIN_SECRET_BYTES);
      yield* Effect.logWarning(
        "CSRF: no secret configured; a random per-process key is used (tokens do not survive a restart nor work across instances)",
      );
    } else {
      key = Buffer.from(
        Redacted.isRedacted(options.secret) ? Redacted.value(options.secret) : options.secret,
      );
      if (key.length < MIN_SECRET_BYTES) {
        return yield* new StartupError({
          message: `CSRF: option "secret" must be at least ${MIN_SECRET_BYTES} bytes (it has ${key.length}); generate one with \`openssl rand -base64 32\`, or leave "secret" out for a random ${MIN_SECRET_BYTES}-byte key per process (one instance only)`,
        });
      }
    }
    const sameSite = options.sameSite ?? "strict";
    /** The names and attributes of the two cookies, on http or on https. */
    const cookiesFor = (secure: boolean) => {
      const prefix = secure ? "__Host-" : "";
      return {
        token: {
          name: `${prefix}${options.cookieName ?? "csrf-token"}`,
          options: { path: "/", sameSite, secure, httpOnly: false },
        },
        client: {
          name: `${prefix}${options.clientCookieName ?? "csrf-client"}`,
          options: { path: "/", sameSite, secure, httpOnly: true },
        },
      } as const;
    };
    const plain = cookiesFor(false);
    const secured = cookiesFor(true);
    const headerName = (options.headerName ?? "x-csrf-token").toLowerCase();
    const safe = new Set(
      (options.ignoreMethods ?? ["GET", "HEAD", "OPTIONS"]).map((m) => m.toUpperCase()),
    );
    const excluded = (options.excludePaths ?? []).map(prefixMatcher);
    const trustProxy = yield* parseTrustProxy(options.trustProxy);
    const forbidden = errorResponse(new ForbiddenError("Invalid CSRF token"));

    // `value.HMAC(key, purpose, value)`: the purpose keeps a client cookie from passing as a
    // token, and a token bound to one binding from passing for another.
    const sign = (purpose: string, value: string) =>
      createHmac("sha256", key).update(`${purpose}\0${value}`).digest();
    const mint = (purpose: string) => {
      const value = base64url(randomBytes(18));
      return `${value}.${base64url(sign(purpose, value))}`;
    };
    const verify = (signed: string, purpose: string) => {
      const dot = signed.indexOf(".");
      if (dot <= 0) return false;
      return sameLength(
        Buffer.from(signed.slice(dot + 1), "base64url"),
        sign(purpose, signed.slice(0, dot)),
      );
    };
    const tokenPurpose = (binding: string) => `csrf-token\0${binding.length}:${binding}`;

    /**
     * Sets a fresh token cookie bound to `binding`; with no binding (no session, no valid client
     * cookie), a fresh client cookie too, the token bound to it.
     */
    const issue = (
      response: HttpServerResponse.HttpServerResponse,
      cookies: typeof plain,
      binding: string | undefined,
    ) => {
      let bound = binding;
      let out = response;
      if (bound === undefined) {
        const client = mint(CLIENT_PURPOSE);
        out = HttpServerResponse.unsafeSetCookie(
          out,
          cookies.client.name,
          client,
          cookies.client.options,
        );
        bound = `c:${client}`;
      }
      return HttpServerResponse.unsafeSetCookie(
        out,
        cookies.token.name,
        mint(tokenPurpose(bound)),
        cookies.token.options,
      );
    };

    return Middleware.make((app) =>
      Middleware.withRequest((request) => {
        if (excluded.length > 0) {
          const path = requestPath(request);
          if (excluded.some((matches) => matches(path))) return app;
        }
        const cookies = (options.secure ?? isHttps(request, trustProxy)) ? secured : plain;
        const session = options.identify?.(request);
        let binding: string | undefined;
        if (session !== undefined && session !== "") binding = `s:${session}`;
        else {
          const client = request.cookies[cookies.client.name];
          if (client !== undefined && verify(client, CLIENT_PURPOSE)) binding = `c:${client}`;
        }
        const token = request.cookies[cookies.token.name];
        const valid =
          binding !== undefined && token !== undefined && verify(token, tokenPurpose(binding));
        if (safe.has(request.method)) {
          return valid ? app : Effect.map(app, (response) => issue(response, cookies, binding));
        }
        const header: unknown = request.headers[headerName];
        if (
          valid &&
          typeof header === "string" &&
          sameLength(Buffer.from(header), Buffer.from(token))
        ) {
          return app;
        }
        return Effect.succeed(valid ? forbidden : issue(forbidden, cookies, binding));
      }),
    );
  });
