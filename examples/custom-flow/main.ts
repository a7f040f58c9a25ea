import * as ConfigProvider from "effect/ConfigProvider";
import * as Effect from "effect/Effect";
import { StrataApp } from "effect-strata";
import { oauthConfigFromEnv } from "effect-strata/oauth";
import { createAppModule } from "./app.js";

const port = Number(process.env.PORT ?? 3000);
// <PROVIDER>_CLIENT_ID / _CLIENT_SECRET; redirect URIs on this app's own callback route.
process.env.OAUTH_REDIRECT_URI ??= `http://localhost:${port}/login/{provider}/callback`;
const config = Effect.runSync(
  Effect.withConfigProvider(oauthConfigFromEnv, ConfigProvider.fromEnv()),
);
const app = new StrataApp(
  createAppModule({
    providers: config.providers,
    secureCookies: process.env.OAUTH_REDIRECT_URI.startsWith("https:"),
  }),
);
await app.listen(port);
const names = Object.keys(config.providers);
console.log(
  `custom-flow listening on ${app.getUrl()}: ${
    names.length === 0
      ? "no provider configured (set e.g. GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET)"
      : `sign in at ${names.map((n) => `/login/${n}`).join(", ")}`
  }`,
);
