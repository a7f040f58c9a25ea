// The running-request list of Strata's node server: what the drain reads (size, responses).
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { RunningRequests } from "../../src/server/internal/RunningRequests.js";

const response = (name: string) => ({ name }) as unknown as ServerResponse;

describe("RunningRequests", () => {
  it("counts what is added and lists the responses, newest first", () => {
    const running = new RunningRequests();
    const [a, b, c] = [response("a"), response("b"), response("c")];
    running.add(a);
    running.add(b);
    running.add(c);
    expect(running.size).toBe(3);
    expect([...running.responses()]).toEqual([c, b, a]);
  });

  it("removes from the head, the middle and the tail, each once", () => {
    const running = new RunningRequests();
    const entries = ["a", "b", "c", "d"].map((name) => running.add(response(name)));
    running.remove(entries[1]); // middle
    running.remove(entries[3]); // head (newest)
    running.remove(entries[0]); // tail (oldest)
    expect(running.size).toBe(1);
    expect([...running.responses()].map((r) => (r as unknown as { name: string }).name)).toEqual([
      "c",
    ]);
    running.remove(entries[1]);
    running.remove(entries[0]);
    expect(running.size).toBe(1);
    running.remove(entries[2]);
    expect(running.size).toBe(0);
    expect([...running.responses()]).toEqual([]);
    running.remove(entries[2]);
    expect(running.size).toBe(0);
  });

  it("keeps 10,000 adds and removes in any order consistent", () => {
    const running = new RunningRequests();
    const live = new Set<ReturnType<RunningRequests["add"]>>();
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 10_000; i++) {
      if (live.size > 0 && random() < 0.5) {
        const victim = [...live][Math.floor(random() * live.size)];
        running.remove(victim);
        live.delete(victim);
      } else live.add(running.add(response(String(i))));
      expect(running.size).toBe(live.size);
    }
    expect(new Set(running.responses())).toEqual(new Set([...live].map((e) => e.response)));
  });
});
