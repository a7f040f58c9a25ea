import type { TestProject } from "vitest/node";
import { type PostgresPlace, preparePostgres } from "./postgres.js";
import { startRedis } from "./redis.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The tests' shared Redis, or why there is none (the Redis tests then fail with it). */
    redis: { readonly port: number } | { readonly error: string };
    /**
     * Where the tests' PostgreSQL runs once a test starts it (`startedPostgres`), or why there
     * is none.
     */
    postgres: PostgresPlace | { readonly error: string };
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A place for PostgreSQL (installing it when missing, see `postgres.ts`), started by the first
 * test that needs it; it reaches the tests through `inject("postgres")`. Returns what stops it.
 */
const providePostgres = async (project: TestProject): Promise<() => Promise<void>> => {
  try {
    const postgres = await preparePostgres();
    project.provide("postgres", { port: postgres.port, dir: postgres.dir });
    return postgres.stop;
  } catch (error) {
    project.provide("postgres", { error: message(error) });
    return async () => undefined;
  }
};

/**
 * Starts one redis-server for the whole run (installing it when missing, see `redis.ts`) and
 * stops it afterwards, with the PostgreSQL a test may have started. Redis's port reaches the
 * tests through `inject("redis")`.
 */
export default async function setup(project: TestProject) {
  const stopPostgres = await providePostgres(project);
  try {
    const redis = await startRedis();
    project.provide("redis", { port: redis.port });
    return async () => {
      await Promise.all([redis.stop(), stopPostgres()]);
    };
  } catch (error) {
    project.provide("redis", { error: message(error) });
    return stopPostgres;
  }
}
