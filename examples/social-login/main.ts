import { randomBytes } from "node:crypto";
import { StrataApp } from "strata";
import { createAppModule, providersFromEnv } from "./app.js";

const port = Number(process.env.PORT ?? 3000);
const providers = providersFromEnv();
const names = Object.keys(providers);
const app = new StrataApp(
  createAppModule({
    providers,
    tokenSecret: process.env.APP_TOKEN_SECRET ?? randomBytes(32).toString("hex"),
    ...(process.env.OAUTH_SEALING_KEY === undefined
      ? {}
      : { sealingKey: process.env.OAUTH_SEALING_KEY }),
  }),
);
await app.listen(port);
console.log(
  names.length === 0
    ? `social-login listening on ${app.getUrl()}: no provider configured (set e.g. GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET)`
    : `social-login listening on ${app.getUrl()}: sign in at ${names.map((n) => `/auth/${n}`).join(", ")}`,
);
