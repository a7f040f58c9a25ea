import type { TestProject } from "vitest/node";
import { startRedis } from "./redis.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The tests' shared Redis, or why there is none (the Redis tests then fail with it). */
    redis: { readonly port: number } | { readonly error: string };
  }
}

/**
 * Starts one redis-server for the whole run (installing it when missing, see `redis.ts`) and
 * stops it afterwards. Its port reaches the tests through `inject("redis")`.
 */
export default async function setup(project: TestProject) {
  try {
    const redis = await startRedis();
    project.provide("redis", { port: redis.port });
    return () => redis.stop();
  } catch (error) {
    project.provide("redis", { error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}
