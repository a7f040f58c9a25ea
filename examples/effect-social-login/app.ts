// Social login, Effect face: the same app as examples/social-login, composed from Layers:
// the OAuth pipeline, a transaction store, the built-in routes signing the app's user in with
// a session (the user found or created by the app's own service), a home route (where a
// sign-in lands) and a `/me` route. Providers.ts says which providers sign in where.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import type * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import { jsonResponse } from "effect-strata";
import {
  OAuth,
  type OAuthConfig,
  OAuthRoutes,
  type OAuthSignIn,
  TransactionSealer,
  TransactionStore,
} from "effect-strata/oauth";
import { CookieSessionStore, Session } from "effect-strata/session";

/** A user of the app, linked to one provider account: the session's data. */
export const AppUser = Schema.Struct({
  id: Schema.Number,
  account: Schema.String,
  email: Schema.optional(Schema.String),
  name: Schema.String,
});
/** A user of the app. */
export type AppUser = typeof AppUser.Type;

/** The app's users (in memory here). */
export class Users extends Context.Tag("examples/effect-social-login/Users")<
  Users,
  {
    readonly upsert: (signIn: OAuthSignIn) => Effect.Effect<{ user: AppUser; isNew: boolean }>;
    readonly find: (id: number) => Effect.Effect<Option.Option<AppUser>>;
  }
>() {
  static readonly layer = Layer.sync(Users, () => {
    const byAccount = new Map<string, AppUser>();
    return {
      upsert: (signIn) =>
        Effect.sync(() => {
          const account = `${signIn.provider}:${signIn.user.id}`;
          const existing = byAccount.get(account);
          if (existing !== undefined) return { user: existing, isNew: false };
          const user: AppUser = {
            id: byAccount.size + 1,
            account,
            ...(signIn.user.email === undefined ? {} : { email: signIn.user.email }),
            name: signIn.user.name ?? "Anonymous",
          };
          byAccount.set(account, user);
          return { user, isNew: true };
        }),
      find: (id) =>
        Effect.sync(() => Option.fromNullable([...byAccount.values()].find((u) => u.id === id))),
    };
  });
}

/** The app's session: its user, sealed in the cookie. */
export const AppSession = Session.make(AppUser);

/** Signs in the app's user of a provider account (created on the first sign-in). */
const appUserOf = (signIn: OAuthSignIn) =>
  Effect.flatMap(Users, (users) => Effect.map(users.upsert(signIn), ({ user }) => user));

/** The built-in routes' options: sign the app's user in with a session. */
export const appRoutesOptions = { session: { from: appUserOf } };

const Me = HttpLayerRouter.add(
  "GET",
  "/me",
  Effect.map(AppSession.require, (user) => jsonResponse(user)),
);

/** What `GET /` answers: the signed-in user, or where to sign in. */
const homeOf = (providers: ReadonlyArray<string>) => {
  const signedOut = { signedIn: false, signIn: providers.map((name) => `/auth/${name}`) };
  return Effect.map(AppSession.current, (user) =>
    jsonResponse(
      Option.match(user, {
        onNone: () => signedOut,
        onSome: (user) => ({ signedIn: true, user, signOut: "POST /auth/logout" }),
      }),
    ),
  );
};

/** `GET /`, where a sign-in lands: the provider list is read once, when the route is added. */
const Home = HttpLayerRouter.use((router) =>
  Effect.flatMap(OAuth, (oauth) => router.add("GET", "/", homeOf(oauth.providers))),
);

/**
 * Every route of the app: `/auth/:provider` and its callback (which signs the user in with a
 * session and redirects home), `GET /auth/session`, `POST /auth/logout`, `/` and `/me`.
 */
export const AppRoutes = Layer.mergeAll(OAuthRoutes.layer(appRoutesOptions), Home, Me);

/** The OAuth services the routes use: the pipeline and a sealed-cookie transaction store. */
export const OAuthLive = (config: OAuthConfig, sealingKey?: Redacted.Redacted<string>) =>
  Layer.mergeAll(
    OAuth.layer(config),
    TransactionStore.layerCookie.pipe(Layer.provide(TransactionSealer.layer(sealingKey))),
  );

/** The app's own services: its users and its sessions (sealed in the cookie with `secret`). */
export const AppServices = (secret: Redacted.Redacted<string>) =>
  Layer.merge(
    Users.layer,
    AppSession.layer().pipe(Layer.provide(CookieSessionStore.layer({ secret }))),
  );
