// Social login, Effect face: the same app as examples/social-login, composed from Layers:
// the OAuth pipeline, a transaction store, the built-in routes with a success handler that
// uses the app's own services, and a `/me` route.
import { createHmac, timingSafeEqual } from "node:crypto";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import { UnauthorizedError } from "strata";
import {
  OAuth,
  type OAuthConfig,
  OAuthRoutes,
  type OAuthSession,
  type OAuthSuccessHandler,
  TransactionSealer,
  TransactionStore,
} from "strata/oauth";

/** A user of the app, linked to one provider account. */
export interface AppUser {
  readonly id: number;
  readonly account: string;
  readonly email?: string;
  readonly name: string;
}

/** The app's users (in memory here). */
export class Users extends Context.Tag("examples/effect-social-login/Users")<
  Users,
  {
    readonly upsert: (session: OAuthSession) => Effect.Effect<{ user: AppUser; isNew: boolean }>;
    readonly find: (id: number) => Effect.Effect<Option.Option<AppUser>>;
  }
>() {
  static readonly layer = Layer.sync(Users, () => {
    const byAccount = new Map<string, AppUser>();
    return {
      upsert: (session) =>
        Effect.sync(() => {
          const account = `${session.provider}:${session.user.id}`;
          const existing = byAccount.get(account);
          if (existing !== undefined) return { user: existing, isNew: false };
          const user: AppUser = {
            id: byAccount.size + 1,
            account,
            ...(session.user.email === undefined ? {} : { email: session.user.email }),
            name: session.user.name ?? "Anonymous",
          };
          byAccount.set(account, user);
          return { user, isNew: true };
        }),
      find: (id) =>
        Effect.sync(() => Option.fromNullable([...byAccount.values()].find((u) => u.id === id))),
    };
  });
}

/** The app's own tokens (HMAC-SHA256 over the user id and an expiry). */
export class AppTokens extends Context.Tag("examples/effect-social-login/AppTokens")<
  AppTokens,
  {
    readonly issue: (user: AppUser) => string;
    readonly verify: (token: string) => Option.Option<number>;
  }
>() {
  static readonly layer = (secret: Redacted.Redacted<string>) =>
    Layer.succeed(AppTokens, {
      issue: (user) => {
        const body = `${user.id}.${Math.floor(Date.now() / 1000) + 3600}`;
        return `${body}.${createHmac("sha256", Redacted.value(secret)).update(body).digest("base64url")}`;
      },
      verify: (token) => {
        const [id, exp, signature] = token.split(".");
        if (id === undefined || exp === undefined || signature === undefined) return Option.none();
        const expected = Buffer.from(
          createHmac("sha256", Redacted.value(secret)).update(`${id}.${exp}`).digest("base64url"),
        );
        const actual = Buffer.from(signature);
        return expected.length === actual.length &&
          timingSafeEqual(expected, actual) &&
          Number(exp) > Date.now() / 1000
          ? Option.some(Number(id))
          : Option.none();
      },
    });
}

/** After a successful login: find or create the user, answer with an app token. */
export const issueAppToken: OAuthSuccessHandler<Users | AppTokens> = (session) =>
  Effect.gen(function* () {
    const { user, isNew } = yield* (yield* Users).upsert(session);
    const token = (yield* AppTokens).issue(user);
    return { token, user, isNewUser: isNew };
  });

const Me = HttpLayerRouter.add(
  "GET",
  "/me",
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
    const id = (yield* AppTokens).verify(token);
    const user = Option.isNone(id) ? Option.none() : yield* (yield* Users).find(id.value);
    if (Option.isNone(user)) return yield* new UnauthorizedError();
    return HttpServerResponse.unsafeJson(user.value);
  }),
);

/** Every route of the app: `/auth/:provider`, `/auth/:provider/callback` and `/me`. */
export const AppRoutes = Layer.mergeAll(OAuthRoutes.layer({ onSuccess: issueAppToken }), Me);

/** The OAuth services the routes use: the pipeline and a sealed-cookie transaction store. */
export const OAuthLive = (config: OAuthConfig, sealingKey?: Redacted.Redacted<string>) =>
  Layer.mergeAll(
    OAuth.layer(config),
    TransactionStore.layerCookie.pipe(Layer.provide(TransactionSealer.layer(sealingKey))),
  );

/** The app's own services. */
export const AppServices = (tokenSecret: Redacted.Redacted<string>) =>
  Layer.merge(Users.layer, AppTokens.layer(tokenSecret));
