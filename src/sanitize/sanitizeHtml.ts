import { loadSanitizeHtml } from "./loadSanitizeHtml.js";

/**
 * Cleans untrusted HTML with `sanitize-html` and its default allowlist: text-level and block
 * tags (`p`, `a`, `b`, `i`, `em`, `strong`, `ul`, `ol`, `li`, `blockquote`, `code`, `pre`,
 * headings, tables, ...) are kept; every other tag is removed but its text kept, except
 * `script`, `style`, `textarea`, `option` and `noscript`, removed with their content. Attributes
 * are dropped except `a[href, name, target]` (and `img` attributes, though `img` itself is not
 * allowed); event handlers (`onclick`, ...) and `style` always go. URLs must use `http`, `https`,
 * `ftp`, `mailto` or `tel`: `javascript:`, `data:` and other schemes are removed. Text is
 * re-escaped (`&`, `<`, `>`), so the result is safe to insert as HTML.
 *
 * @since 0.1.0
 * @category sanitize
 */
export const sanitizeHtml = (input: string): string => loadSanitizeHtml()(input);
