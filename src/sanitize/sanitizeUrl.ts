/** Schemes a sanitized absolute URL may have. */
const SAFE_SCHEMES = new Set(["http:", "https:", "mailto:"]);

/** A same-origin path: `/` then not another `/` or `\` (which browsers read as `//host`). */
const RELATIVE_PATH = /^\/(?![/\\])/;

/** Controls, spaces, invisible format characters, line separators and backslashes. */
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Z}\\]/u;

/**
 * Keeps a URL only when it is safe to put in an `href` or `src`: an absolute `http:`, `https:`
 * or `mailto:` URL, returned normalized by the WHATWG URL parser (`HTTPS://Example.com` becomes
 * `https://example.com/`), or a same-origin path starting with a single `/` (`/a?b#c`,
 * returned as given). Anything else gives `""`: `javascript:`, `data:`, `vbscript:`, `file:`
 * and other schemes however they are cased or padded, protocol-relative `//host`, `/\host`,
 * relative paths without a leading `/`, and URLs holding whitespace, control or invisible
 * characters or backslashes. Surrounding whitespace is trimmed first. Escape the result for
 * its context (an HTML attribute: {@link escapeHtml}).
 *
 * @since 0.1.0
 * @category sanitize
 */
export const sanitizeUrl = (input: string): string => {
  const url = input.trim();
  if (url === "" || UNSAFE_CHARACTERS.test(url)) return "";
  if (url.startsWith("/")) return RELATIVE_PATH.test(url) ? url : "";
  if (!URL.canParse(url)) return "";
  const parsed = new URL(url);
  if (!SAFE_SCHEMES.has(parsed.protocol)) return "";
  if (parsed.protocol !== "mailto:" && parsed.hostname === "") return "";
  return parsed.href;
};
