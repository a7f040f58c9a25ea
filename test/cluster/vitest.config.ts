import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Files by name: the logins (1-) before the rate limit is spent and instances are killed (2-). */
class ByName extends BaseSequencer {
  override async sort(files: Array<TestSpecification>) {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

// The cluster suite (`npm run test:cluster`): scripts/cluster.sh's nginx, three instances of
// the social-login demo and Redis, driven over loopback HTTP. One file at a time, in order.
export default defineConfig({
  test: {
    include: ["test/cluster/**/*.test.ts"],
    globalSetup: ["test/cluster/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    sequence: { sequencer: ByName },
  },
});
