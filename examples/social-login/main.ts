import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { RateLimitMiddleware, StrataApp } from "effect-strata";
import { DevIdentityProviderError, endpointsFor } from "effect-strata/devidp";
import { RedisRateLimitStore } from "effect-strata/effect";
import { servedBy } from "../cluster/servedBy.js";
import { sharedDevClients } from "../cluster/sharedDevClients.js";
import { createAppModule } from "./app.js";
import {
  DemoConfigError,
  type DemoProviders,
  demoProviders,
  devProviders,
  providersFromEnv,
  unconfigured,
} from "./providers.js";

/**
 * Several instances (`scripts/cluster.sh`, docs/deployment.md): `DEV_IDP_URL` names the one
 * development identity provider they share; `REDIS_URL` shares OAuth transactions and the
 * rate limit of `/auth` (`RATE_LIMIT_MAX` per minute); `TRUST_PROXY` is the number of proxies
 * in front (`1`) or their addresses, comma-separated; `STRATA_INSTANCE` names this instance in
 * an `X-Strata-Instance` response header.
 */
const sharedProviders = (env: NodeJS.ProcessEnv, url: string): DemoProviders => {
  const real = providersFromEnv(env);
  const development = unconfigured(real);
  const shared = devProviders(
    { endpoints: (name, tenant) => endpointsFor(url, name, tenant) },
    sharedDevClients(development, env),
  );
  return { providers: { ...real, ...shared }, development };
};
const devIdpUrl = process.env.DEV_IDP_URL;
/** ioredis options from a `redis://host:port` URL. */
const redisOptions = (url: string) => {
  const { hostname, port } = new URL(url);
  return { host: hostname, port: Number(port === "" ? 6379 : port) };
};
const redis = process.env.REDIS_URL === undefined ? undefined : redisOptions(process.env.REDIS_URL);
const trustProxy =
  process.env.TRUST_PROXY === undefined
    ? false
    : /^\d+$/.test(process.env.TRUST_PROXY)
      ? Number(process.env.TRUST_PROXY)
      : process.env.TRUST_PROXY.split(",");

const port = Number(process.env.PORT ?? 3000);

const { providers, development, idp } = await (devIdpUrl === undefined
  ? demoProviders(process.env)
  : Promise.resolve().then(() => sharedProviders(process.env, devIdpUrl))
).catch((error: unknown) => {
  // A provider half configured, or NODE_ENV=production with a provider left unconfigured: say
  // why, no stack trace.
  if (!(error instanceof DevIdentityProviderError || error instanceof DemoConfigError)) throw error;
  console.error(`social-login: ${error.message}`);
  process.exit(1);
});
// The development identity provider: shared by every instance (DEV_IDP_URL) or this process's own.
const idpUrl = devIdpUrl ?? idp?.url;

const app = new StrataApp(
  createAppModule({
    providers,
    development,
    imageOrigins: idpUrl === undefined ? [] : [idpUrl],
    // Set SESSION_SECRET to keep sessions across restarts; SESSION_STORE=redis (with
    // REDIS_URL) keeps them in Redis, where signing out kills every copy of the cookie.
    sessionSecret: process.env.SESSION_SECRET ?? randomBytes(32).toString("base64url"),
    ...(process.env.SESSION_STORE === "redis"
      ? { sessionStore: { redis: redis ?? redisOptions("redis://127.0.0.1:6379") } }
      : {}),
    // Users and their linked provider accounts, kept across restarts in an embedded SQLite
    // file: ACCOUNTS_DB, else .data/accounts.db beside this file (git-ignored).
    accountStore: {
      sqlite: {
        filename:
          process.env.ACCOUNTS_DB ?? fileURLToPath(new URL(".data/accounts.db", import.meta.url)),
      },
    },
    // One process, so a per-process key is enough; set OAUTH_SEALING_KEY to survive restarts.
    sealingKey: process.env.OAUTH_SEALING_KEY ?? randomBytes(32).toString("base64url"),
    ...(redis === undefined ? {} : { transactionStore: { redis } }),
  }),
  // The API's OpenAPI document at /openapi.json, its docs page at /docs.
  { openapi: { info: { title: "Strata social login demo", version: "1.0.0" } } },
);
// Several instances or workers name themselves in `X-Strata-Instance`.
if (process.env.STRATA_INSTANCE !== undefined) app.use(servedBy(process.env.STRATA_INSTANCE));
if (redis !== undefined) {
  app.use(
    "/auth",
    new RateLimitMiddleware({
      max: Number(process.env.RATE_LIMIT_MAX ?? 100),
      store: RedisRateLimitStore.layer(redis),
      trustProxy,
    }),
  );
}
await app.listen(port);

console.log(`social-login: open http://localhost:${port}`);
for (const name of development) {
  const env = name.toUpperCase();
  console.log(
    `  ${name}: development identity provider at ${idpUrl} (set ${env}_CLIENT_ID and ${env}_CLIENT_SECRET for the real one)`,
  );
}
