import { loadEscape } from "./loadValidator.js";

/**
 * Escapes text for HTML (element content or a quoted attribute value), with `validator`'s
 * `escape`: `&`, `<`, `>`, `"`, `'`, `/`, `\` and `` ` `` become character references
 * (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#x27;`, `&#x2F;`, `&#x5C;`, `&#96;`). Nothing else
 * changes, and nothing is removed: the text reads the same once rendered. Not enough inside
 * `<script>`, `<style>`, unquoted attributes or URLs (use {@link sanitizeUrl} for those).
 *
 * @since 0.1.0
 * @category sanitize
 */
export const escapeHtml = (input: string): string => loadEscape()(input);
