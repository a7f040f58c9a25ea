// Module resolution hook for the API reference build (see build.mjs): TypeDoc is written against
// TypeScript's JavaScript compiler API, which TypeScript 7 (the project's native `tsc`) no longer
// ships. Its `import ts from "typescript"` is sent to TypeScript 5.9, installed under the npm
// alias `typescript-5`.

/** Resolves the bare specifier `typescript` to the `typescript-5` alias, everything else as is. */
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier === "typescript" ? "typescript-5" : specifier, context);
}
