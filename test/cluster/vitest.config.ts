import { defineConfig } from "vitest/config";

// The cluster suite (`npm run test:cluster`): scripts/cluster.sh's nginx, three instances of
// the social-login demo and Redis, driven over loopback HTTP. One file at a time, in order.
export default defineConfig({
  test: {
    include: ["test/cluster/**/*.test.ts"],
    globalSetup: ["test/cluster/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
