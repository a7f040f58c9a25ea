import { fileURLToPath } from "node:url";
import swc from "unplugin-swc";
import { defineConfig } from "vitest/config";

// @effect/platform's own suites, fetched by run.mjs into test-artifacts/upstream, run against
// Strata's wiring: their imports of `@effect/platform`, `@effect/platform/HttpLayerRouter` and
// `@effect/platform-node` resolve to the shims (only theirs: Strata's sources get the real ones).
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const suites = here("../../test-artifacts/upstream/");
const shims: Record<string, string> = {
  "@effect/platform": here("shims/platform.ts"),
  "@effect/platform/HttpLayerRouter": here("shims/HttpLayerRouter.ts"),
  "@effect/platform-node": here("shims/platform-node.ts"),
};

export default defineConfig({
  root: here("../.."),
  plugins: [
    swc.vite({
      jsc: {
        parser: { syntax: "typescript", decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: "es2022",
      },
    }),
    {
      name: "strata-wiring",
      enforce: "pre",
      resolveId: (source, importer) =>
        importer?.startsWith(suites) === true ? (shims[source] ?? null) : null,
    },
  ],
  ssr: { resolve: { conditions: ["strata-source", "node", "default"] } },
  test: {
    include: ["test-artifacts/upstream/**/*.test.ts"],
    testTimeout: 20_000,
  },
});
