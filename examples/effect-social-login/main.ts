import { randomBytes } from "node:crypto";
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as HttpServer from "@effect/platform/HttpServer";
import * as NodeRuntime from "@effect/platform-node/NodeRuntime";
import * as Config from "effect/Config";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import { StrataServer } from "effect-strata";
import { oauthConfigFromEnv } from "effect-strata/oauth";
import { AppRoutes, AppServices, OAuthLive } from "./app.js";

const port = Number(process.env.PORT ?? 3000);

// Configuration from the environment: <PROVIDER>_CLIENT_ID / _CLIENT_SECRET, OAUTH_REDIRECT_URI
// (e.g. http://localhost:3000/auth/{provider}/callback), OAUTH_SEALING_KEY, SESSION_SECRET.
const Services = Layer.unwrapEffect(
  Effect.gen(function* () {
    const oauth = yield* oauthConfigFromEnv;
    const sealingKey = yield* Config.option(Config.redacted("OAUTH_SEALING_KEY"));
    const sessionSecret = yield* Config.redacted("SESSION_SECRET").pipe(
      Config.withDefault(Redacted.make(randomBytes(32).toString("base64url"))),
    );
    yield* Effect.log(
      `Providers: ${Object.keys(oauth.providers).join(", ") || "none (set e.g. GITHUB_CLIENT_ID)"}`,
    );
    return Layer.merge(
      OAuthLive(oauth, Option.getOrUndefined(sealingKey)),
      AppServices(sessionSecret),
    );
  }),
);

const LogAddress = Layer.effectDiscard(
  HttpServer.addressFormattedWith((address) =>
    Effect.log(`effect-social-login listening on ${address} (sign in at /auth/<provider>)`),
  ),
);

StrataServer.serve(AppRoutes).pipe(
  Layer.merge(LogAddress),
  Layer.provide(Services),
  Layer.provide(FetchHttpClient.layer),
  Layer.provide(StrataServer.layerNode({ port })),
  Layer.launch,
  NodeRuntime.runMain,
);
