// `node --import ./scripts/register.mjs app.ts` runs TypeScript sources (see ts-hooks.mjs).
import { register } from "node:module";

register("./ts-hooks.mjs", import.meta.url);
