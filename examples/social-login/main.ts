import { randomBytes } from "node:crypto";
import { StrataApp } from "strata";
import { DevIdentityProviderError } from "strata/devidp";
import { createAppModule } from "./app.js";
import { DemoConfigError, demoProviders } from "./providers.js";

const port = Number(process.env.PORT ?? 3000);
const { providers, development, idp } = await demoProviders(process.env).catch((error: unknown) => {
  // A provider half configured, or NODE_ENV=production with a provider left unconfigured: say
  // why, no stack trace.
  if (!(error instanceof DevIdentityProviderError || error instanceof DemoConfigError)) throw error;
  console.error(`social-login: ${error.message}`);
  process.exit(1);
});

const app = new StrataApp(
  createAppModule({
    providers,
    development,
    imageOrigins: idp === undefined ? [] : [idp.url],
    tokenSecret: process.env.APP_TOKEN_SECRET ?? randomBytes(32).toString("hex"),
    // One process, so a per-process key is enough; set OAUTH_SEALING_KEY to survive restarts.
    sealingKey: process.env.OAUTH_SEALING_KEY ?? randomBytes(32).toString("base64url"),
  }),
  // The API's OpenAPI document at /openapi.json, its docs page at /docs.
  { openapi: { info: { title: "Strata social login demo", version: "1.0.0" } } },
);
await app.listen(port);

console.log(`social-login: open http://localhost:${port}`);
for (const name of development) {
  const env = name.toUpperCase();
  console.log(
    `  ${name}: development identity provider at ${idp?.url} (set ${env}_CLIENT_ID and ${env}_CLIENT_SECRET for the real one)`,
  );
}
