/// <reference types="reflect-metadata" preserve="true" />
import { createRequire } from "node:module";

// The `reflect-metadata` polyfill (CommonJS), loaded with `require`: the same module instance
// as an app's own `import "reflect-metadata"`, without node's ESM loader lexing its 64 KB of
// source for named exports first (~9 ms of startup when the app does not import it itself).
createRequire(import.meta.url)("reflect-metadata");
