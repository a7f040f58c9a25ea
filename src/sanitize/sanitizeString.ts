import type sanitize from "sanitize-html";
import { loadSanitizeHtml } from "./loadSanitizeHtml.js";

/** C0 and C1 control characters except tab, line feed and carriage return; DEL. */
const CONTROL = /(?![\t\n\r])\p{Cc}/gu;
/** Bidirectional overrides and isolates (Trojan Source), and the byte order mark. */
const INVISIBLE = /[\u202A-\u202E\u2066-\u2069\uFEFF]/g;

const TEXT_ONLY: sanitize.IOptions = { allowedTags: [], allowedAttributes: {} };

/** The four references `sanitize-html` writes in text, back to characters (`&amp;` last). */
const decode = (text: string) =>
  text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");

/**
 * Turns untrusted input into plain text: HTML tags are removed (by `sanitize-html`;
 * `script`, `style`, `textarea`, `option` and `noscript` with their content), entities decoded,
 * then any `<` or `>` left removed (so no tag can come back from `&lt;script&gt;`), control
 * characters removed (tab, LF and CR stay), bidirectional-override characters and the BOM
 * removed, Unicode normalized to NFC, and surrounding whitespace trimmed. The result is text,
 * not HTML: escape it with {@link escapeHtml} when writing it into a page.
 *
 * @since 0.1.0
 * @category sanitize
 */
export const sanitizeString = (input: string): string =>
  decode(loadSanitizeHtml()(input, TEXT_ONLY))
    .replace(/[<>]/g, "")
    .replace(CONTROL, "")
    .replace(INVISIBLE, "")
    .normalize("NFC")
    .trim();
