import swc from "unplugin-swc";
import { configDefaults, defineConfig } from "vitest/config";

// esbuild cannot emit decorator metadata, so TypeScript goes through swc with legacy
// decorators and `design:paramtypes`, exactly as `tsc` emits them for the build.
export default defineConfig({
  plugins: [
    swc.vite({
      jsc: {
        parser: { syntax: "typescript", decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: "es2022",
      },
    }),
  ],
  // Examples import "effect-strata" by name: resolve it to the sources, as `node --conditions` does.
  // Vitest hands these conditions to node too: no "import" among them, or node's require()
  // picks packages' ESM entries (pg requiring pg-pool gets a module namespace).
  ssr: { resolve: { conditions: ["strata-source", "node", "default"] } },
  test: {
    include: ["test/**/*.test.ts"],
    // The browser suite has its own config and script (`npm run test:browser`).
    exclude: [...configDefaults.exclude, "test/browser/**", "test/cluster/**"],
    // A redis-server for the rate-limit tests (installed when missing), stopped after the run.
    globalSetup: ["test/support/globalSetup.ts"],
    testTimeout: 15_000,
  },
});
