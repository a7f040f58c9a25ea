/**
 * Validation of redirect targets: `successRedirect` / `errorRedirect` and a callback handler's
 * `Location` (SECURITY.md 12 and 36). A target is checked on the value that will be sent,
 * after the URL normalisation Strata applies: a path on the app's own origin or a URL on a
 * configured origin; everything else is refused and never echoed.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either";
import * as Option from "effect/Option";

const placeholder = "http://strata.invalid";

/**
 * The origins (`https://app.example.com`) an absolute redirect may go to, normalised; an
 * entry that is not an http(s) origin is an error at startup.
 *
 * @since 0.1.0
 * @category redirects
 */
export const normaliseOrigins = (origins: ReadonlyArray<string> = []): ReadonlySet<string> =>
  new Set(
    origins.map((origin) => {
      const url = new URL(origin);
      if (url.protocol !== "https:" && url.protocol !== "http:") {
        throw new Error(`Redirect origin ${origin} is not an http(s) origin`);
      }
      return url.origin;
    }),
  );

// Control characters (C0, DEL, C1) and backslashes are refused anywhere in the value given:
// browsers drop tabs and newlines and read `\` as `/`, so what they follow is not what was checked.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const forbidden = /[\u0000-\u001f\u007f-\u009f\\]/;

// A path with a percent-encoded `.`, `/`, `\` or control character: URL parsers resolve `%2e`
// as a dot segment, and servers or client-side routers that decode before routing turn
// `/%2F%2Fevil` or `/%5Cevil` into another host.
const encodedInPath = /%(?:2e|2f|5c|[01][0-9a-f]|7f)/i;

/** `value` parsed (against `base` when given); `undefined` when it is not a URL. */
const parse = (value: string, base?: string): URL | undefined => {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
};

/**
 * Checks one redirect target. `Right(None)` when absent, `Right(Some(target))` when allowed,
 * `Left` when refused. `target` is the normalised form, the exact value to send: a path
 * (`/a/../b` gives `/b`) that starts with one `/` and no `\`, so a browser stays on the app's
 * origin, or the `href` of an http(s) URL on a configured origin. Refused: a repeated
 * parameter, an empty value, control characters or backslashes, a value that normalises to
 * `//host` (`//`, `/.//`, `/..//`, `/%2e//`, `/a/..//`), a path with an encoded `.`, `/`, `\`
 * or control character, a scheme other than http(s) (`javascript:`, `data:`, ...), userinfo,
 * or an origin that is not configured.
 *
 * @since 0.1.0
 * @category redirects
 */
export const validateRedirect = (
  value: unknown,
  allowedOrigins: ReadonlySet<string>,
): Either.Either<Option.Option<string>, "invalid"> => {
  if (value === undefined) return Either.right(Option.none());
  if (typeof value !== "string" || value === "" || value.length > 2048 || forbidden.test(value)) {
    return Either.left("invalid");
  }
  if (value.startsWith("/")) {
    const url = parse(value, placeholder);
    if (url === undefined || url.origin !== placeholder || encodedInPath.test(url.pathname)) {
      return Either.left("invalid");
    }
    // What is sent, checked as a browser reads it: `//host/...` is another host.
    const target = `${url.pathname}${url.search}${url.hash}`;
    return target.startsWith("//") ? Either.left("invalid") : Either.right(Option.some(target));
  }
  const url = parse(value);
  if (
    url === undefined ||
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.username !== "" ||
    url.password !== "" ||
    !allowedOrigins.has(url.origin) ||
    encodedInPath.test(url.pathname)
  ) {
    return Either.left("invalid");
  }
  return Either.right(Option.some(url.href));
};

/** The stable `error` code of a failing callback handler. @since 0.1.0 @category routes */
export const HANDLER_FAILED = "callback_handler_failed";

/**
 * `target` (a value {@link validateRedirect} returned) with `error=<code>` added to its query,
 * for error redirects; its path is kept as it is, so a relative target stays relative.
 *
 * @since 0.1.0
 * @category redirects
 */
export const withErrorCode = (target: string, code: string): string => {
  const relative = target.startsWith("/");
  const url = new URL(target, placeholder);
  url.searchParams.set("error", code);
  return relative ? `${url.pathname}${url.search}${url.hash}` : url.href;
};
