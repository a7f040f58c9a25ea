// The social-login demo on every core of one machine (`npm run example:workers`,
// docs/deployment.md "All cores of one machine"): a primary process forks WORKERS workers
// (default: os.availableParallelism()) of ./worker.ts, which all listen on PORT (3000).
//
//   kill -HUP <primary>    rolling restart, one worker at a time, no request lost
//   kill -TERM <primary>   (or Ctrl-C) every worker drains, then the primary exits 0
//
// Every worker gets the same OAUTH_SEALING_KEY and SESSION_SECRET (drawn here for the
// primary's life when unset) and signs in at one development identity provider, started here
// unless DEV_IDP_URL names one. Set REDIS_URL to share transactions (single-use across
// workers), the /auth rate limit and, with SESSION_STORE=redis, sessions.
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { startDevIdentityProvider } from "effect-strata/devidp";
import { supportedProviders } from "effect-strata/oauth";
import { sharedDevClients } from "./sharedDevClients.js";
import { superviseWorkers } from "./supervisor.js";

const workers = Number(process.env.WORKERS ?? availableParallelism());
if (!Number.isInteger(workers) || workers < 1) {
  console.error(`workers: WORKERS must be a whole number above 0, not ${process.env.WORKERS}`);
  process.exit(1);
}
const drawn = () => randomBytes(32).toString("base64url");
const env: Record<string, string> = {
  OAUTH_SEALING_KEY: process.env.OAUTH_SEALING_KEY ?? drawn(),
  SESSION_SECRET: process.env.SESSION_SECRET ?? drawn(),
};
const idp =
  process.env.DEV_IDP_URL === undefined
    ? await (async () => {
        const clientSecret = process.env.DEV_IDP_CLIENT_SECRET ?? drawn();
        const clientsEnv = { ...process.env, DEV_IDP_CLIENT_SECRET: clientSecret };
        const started = await startDevIdentityProvider({
          clients: sharedDevClients(supportedProviders, clientsEnv),
        });
        env.DEV_IDP_URL = started.url;
        env.DEV_IDP_CLIENT_SECRET = clientSecret;
        return started;
      })()
    : undefined;

const supervisor = superviseWorkers({
  exec: fileURLToPath(new URL("./worker.ts", import.meta.url)),
  workers,
  env,
});
console.log(
  `primary: pid ${process.pid}, ${workers} worker(s) on port ${process.env.PORT ?? 3000}`,
);

process.on("SIGHUP", () => void supervisor.rollingRestart());
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void supervisor
      .stop()
      .then(() => idp?.close())
      .then(() => {
        console.log("primary: every worker has stopped");
        process.exit(0);
      });
  });
}
