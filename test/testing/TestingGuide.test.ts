// The testing guide (docs/testing.md) shows test/testing/MockProvider.test.ts: the printed example
// is the test that runs, character for character.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe("the testing guide", () => {
  it("prints test/testing/MockProvider.test.ts exactly", () => {
    const test = read("test/testing/MockProvider.test.ts");
    expect(read("docs/testing.md")).toContain(`\`\`\`ts\n${test}\`\`\``);
  });
});
