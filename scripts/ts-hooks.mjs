// Node module hooks that run the project's TypeScript directly: swc strips types and emits
// legacy decorators with `design:paramtypes` metadata, as `tsc` does for the build.

import { fileURLToPath } from "node:url";
import { transform } from "@swc/core";

const swcOptions = {
  sourceMaps: "inline",
  module: { type: "es6" },
  jsc: {
    target: "es2022",
    parser: { syntax: "typescript", decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
  },
};

/** `./x.js` written in TypeScript sources means `./x.ts`. */
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith(".") || specifier.startsWith("/");
    if (relative && specifier.endsWith(".js") && error?.code === "ERR_MODULE_NOT_FOUND") {
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
    throw error;
  }
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith(".ts") || url.includes("/node_modules/")) return nextLoad(url, context);
  const { source } = await nextLoad(url, { ...context, format: "module" });
  const { code } = await transform(String(source), { ...swcOptions, filename: fileURLToPath(url) });
  return { format: "module", source: code, shortCircuit: true };
}
