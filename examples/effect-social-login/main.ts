import { randomBytes } from "node:crypto";
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as HttpServer from "@effect/platform/HttpServer";
import * as NodeRuntime from "@effect/platform-node/NodeRuntime";
import * as Config from "effect/Config";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import { StrataServer } from "effect-strata/effect";
import { AppRoutes, AppServices, OAuthLive } from "./app.js";
import { Providers } from "./Providers.js";

const port = Number(process.env.PORT ?? 3000);

// Configuration from the environment: <PROVIDER>_CLIENT_ID / _CLIENT_SECRET and
// OAUTH_REDIRECT_URI (e.g. http://localhost:3000/auth/{provider}/callback) for real providers
// (every other one signs in at the development identity provider), OAUTH_SEALING_KEY,
// SESSION_SECRET.
const Services = Layer.unwrapEffect(
  Effect.gen(function* () {
    const { config, development, idpUrl } = yield* Providers;
    const sealingKey = yield* Config.option(Config.redacted("OAUTH_SEALING_KEY"));
    const sessionSecret = yield* Config.redacted("SESSION_SECRET").pipe(
      Config.withDefault(Redacted.make(randomBytes(32).toString("base64url"))),
    );
    for (const name of development) {
      const env = name.toUpperCase();
      yield* Effect.log(
        `${name}: development identity provider at ${Option.getOrElse(idpUrl, () => "")} (set ${env}_CLIENT_ID and ${env}_CLIENT_SECRET for the real one)`,
      );
    }
    return Layer.merge(
      OAuthLive(config, Option.getOrUndefined(sealingKey)),
      AppServices(sessionSecret),
    );
  }),
  // The development identity provider lives as long as the app.
).pipe(Layer.provide(Providers.layer(port)));

const LogAddress = Layer.effectDiscard(
  HttpServer.addressFormattedWith((address) =>
    Effect.log(`effect-social-login listening on ${address}: open http://localhost:${port}/`),
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
