import { createRequire } from "node:module";
// validator is CommonJS: the module, whose `default` is the function.
import type escapeModule from "validator/lib/escape.js";
import type isEmailModule from "validator/lib/isEmail.js";

const require = createRequire(import.meta.url);
let escapeFn: typeof escapeModule.default | undefined;
let isEmailFn: typeof isEmailModule.default | undefined;

// `validator`'s functions are loaded on first use, like `sanitize-html`: `isEmail` alone pulls
// in seven more modules, startup time that apps that never call it should not pay.

/** `validator`'s `escape`. */
export const loadEscape = (): typeof escapeModule.default => {
  escapeFn ??= (require("validator/lib/escape.js") as typeof escapeModule).default;
  return escapeFn;
};

/** `validator`'s `isEmail`. */
export const loadIsEmail = (): typeof isEmailModule.default => {
  isEmailFn ??= (require("validator/lib/isEmail.js") as typeof isEmailModule).default;
  return isEmailFn;
};
