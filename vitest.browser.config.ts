import { defineConfig } from "vitest/config";

// The browser suite (`npm run test:browser`): Debian's Chromium, driven by playwright-core,
// against the app `npm start` runs. Separate from the unit tests (`vitest.config.ts`).
export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One app and one browser at a time.
    fileParallelism: false,
    // The test Redis (the demo's SESSION_STORE=redis run), as the unit tests start it.
    globalSetup: ["test/support/globalSetup.ts"],
  },
});
