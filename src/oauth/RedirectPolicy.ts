/**
 * Validation of `successRedirect` / `errorRedirect` (SECURITY.md 12): a plain relative path or
 * a URL on a configured origin; everything else is refused and never echoed.
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

// Control characters (C0, DEL, C1) and backslashes are refused anywhere in the value.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const forbidden = /[\u0000-\u001f\u007f-\u009f\\]/;

/**
 * Checks one redirect parameter. `Right(None)` when absent, `Right(Some(url))` with the
 * normalised URL when allowed, `Left` when refused: a repeated parameter, an empty value,
 * control characters or backslashes, a protocol-relative (`//`) value, a scheme other than
 * http(s) (`javascript:`, `data:`, ...), userinfo, or an origin that is not configured.
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
    if (value.startsWith("//")) return Either.left("invalid");
    let url: URL;
    try {
      url = new URL(value, placeholder);
    } catch {
      return Either.left("invalid");
    }
    if (url.origin !== placeholder) return Either.left("invalid");
    return Either.right(Option.some(`${url.pathname}${url.search}${url.hash}`));
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return Either.left("invalid");
  }
  if (
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.username !== "" ||
    url.password !== "" ||
    !allowedOrigins.has(url.origin)
  ) {
    return Either.left("invalid");
  }
  return Either.right(Option.some(url.href));
};

/**
 * `target` with `error=<code>` added to its query, for error redirects (a relative target
 * stays relative).
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
