/**
 * One meaning per path (SECURITY.md check 35). A request target is brought to one canonical
 * origin form before anything reads it: the server routes the canonical target, and middleware,
 * rate limits, CSRF excludes and logs read the path from it, so no spelling of a path can reach
 * a route while skipping middleware scoped to that path. A target with no single meaning is
 * refused (400) instead.
 *
 * The canonical form of a target:
 * - absolute form (`http://host/x?y`, a proxy's request line) becomes origin form (`/x?y`);
 * - in the path, escapes of characters that are not delimiters are decoded (`/%61dmin` is
 *   `/admin`, `/caf%C3%A9` is `/café`), escapes of delimiters (`%2F`, `%3B`, `%3F`, `%25`, ...)
 *   stay escaped, in upper case, and repeated slashes are collapsed (`//admin` is `/admin`):
 *   the router's own decoding then leaves the path as it is;
 * - the query is kept byte for byte (repeated slashes, `+`, escapes, all untouched).
 *
 * Refused: a path with `;` (which routers read as a parameter delimiter), `#`, `\`, a control
 * character or a raw non-ASCII byte, a dot segment (`.`, `..`, also when escaped), a malformed
 * escape or invalid UTF-8, and any target that is neither origin nor absolute form (`*`).
 *
 * @since 0.1.0
 * @category http
 */
export const canonicalTarget = (raw: string): string | undefined => {
  if (raw.charCodeAt(0) !== SLASH) return fromAbsoluteForm(raw);
  const query = raw.indexOf("?");
  const end = query === -1 ? raw.length : query;
  let previous = 0;
  for (let i = 0; i < end; i++) {
    const c = raw.charCodeAt(i);
    if (c === PERCENT || (previous === SLASH && (c === SLASH || c === DOT))) {
      const path = canonicalPath(raw.slice(0, end));
      return path === undefined ? undefined : query === -1 ? path : path + raw.slice(query);
    }
    if (!isPathChar(c)) return undefined;
    previous = c;
  }
  return raw;
};

/** The canonical form of a path (no query, see {@link canonicalTarget}), or `undefined` when refused. */
const canonicalPath = (raw: string): string | undefined => {
  let path = "";
  // The bytes of a run of decoded escapes, decoded as UTF-8 together once the run ends.
  const bytes: Array<number> = [];
  const flush = (): boolean => {
    if (bytes.length === 0) return true;
    let text: string;
    try {
      text = utf8.decode(Uint8Array.from(bytes));
    } catch {
      return false;
    }
    bytes.length = 0;
    for (let j = 0; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c < 0x20 || c === 0x7f || c === BACKSLASH) return false;
    }
    path += text;
    return true;
  };
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === PERCENT) {
      const byte = hexByte(raw, i + 1);
      if (byte === undefined) return undefined;
      i += 2;
      if (KEPT_ESCAPES.has(byte)) {
        if (!flush()) return undefined;
        path += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
      } else bytes.push(byte);
      continue;
    }
    if (!flush() || !isPathChar(c)) return undefined;
    if (c === SLASH && path.charCodeAt(path.length - 1) === SLASH) continue;
    path += raw[i];
  }
  if (!flush()) return undefined;
  if (path.charCodeAt(0) !== SLASH) return undefined;
  // Checked on the decoded path, so that `%2e%2e` is a dot segment too.
  for (const segment of path.split("/")) if (segment === "." || segment === "..") return undefined;
  return path;
};

/**
 * The path of a request target, as {@link canonicalTarget} makes it, without the query: what the
 * router matches (before it ignores letter case and a trailing slash). A refused target gives its
 * raw path, for logs only: such requests are answered 400 before any route runs.
 *
 * @since 0.1.0
 * @category http
 */
export const targetPath = (raw: string): string => {
  const target = canonicalTarget(raw) ?? raw;
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
};

const SLASH = 47;
const DOT = 46;
const PERCENT = 37;
const BACKSLASH = 92;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The bytes whose escapes stay escaped: the delimiters the router leaves encoded when it decodes
 * a path (`# $ & + , / : ; = ? @`) and `%` itself (decoding it would decode twice).
 */
const KEPT_ESCAPES: ReadonlySet<number> = new Set(
  Array.from("#$&+,/:;=?@%", (char) => char.charCodeAt(0)),
);

/** A printable ASCII character a path may carry as it is: not `;`, `#` or `\`. */
const isPathChar = (c: number): boolean =>
  c > 0x20 && c < 0x7f && c !== 59 /* ; */ && c !== 35 /* # */ && c !== BACKSLASH;

const hexDigit = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;

const hexByte = (text: string, at: number): number | undefined => {
  const high = hexDigit(text.charCodeAt(at));
  const low = hexDigit(text.charCodeAt(at + 1));
  return high === -1 || low === -1 ? undefined : high * 16 + low;
};

/** `scheme://authority` with an authority of RFC 3986's characters only. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[A-Za-z0-9\-._~%!$&'()*+,;=:@[\]]*/;

/** An absolute-form target (`http://host/path?query`) in origin form, or refused. */
const fromAbsoluteForm = (raw: string): string | undefined => {
  const authority = ABSOLUTE_FORM.exec(raw);
  if (authority === null) return undefined;
  const rest = raw.slice(authority[0].length);
  if (rest === "") return "/";
  const first = rest.charCodeAt(0);
  if (first === 63 /* ? */) return `/${rest}`;
  return first === SLASH ? canonicalTarget(rest) : undefined;
};
