import { createRequire } from "node:module";

type Rxjs = typeof import("rxjs");

const require = createRequire(import.meta.url);
let loaded: Rxjs | undefined;

/**
 * rxjs, loaded on first use (NestJS's `next.handle()`, `@Sse()`): an optional peer dependency
 * that apps not written the NestJS way neither pay for nor need. Synchronous, as `handle()`
 * returns its Observable at once; without rxjs installed, the error says what to do.
 */
export const loadRxjs = (): Rxjs => {
  if (loaded !== undefined) return loaded;
  try {
    loaded = require("rxjs") as Rxjs;
  } catch (cause) {
    throw new Error(
      "next.handle() returns an rxjs Observable, and rxjs is not installed: run `npm install rxjs`, or await next() instead (a Promise of the handler's result).",
      { cause },
    );
  }
  return loaded;
};
