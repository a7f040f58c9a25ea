import { createRequire } from "node:module";
import type sanitizeHtml from "sanitize-html";

const require = createRequire(import.meta.url);
let loaded: typeof sanitizeHtml | undefined;

/**
 * `sanitize-html`, loaded on first use: it costs ~40 ms of startup and memory that apps that
 * never sanitize HTML should not pay. It is CommonJS, so the first call loads it synchronously.
 */
export const loadSanitizeHtml = (): typeof sanitizeHtml => {
  loaded ??= require("sanitize-html") as typeof sanitizeHtml;
  return loaded;
};
