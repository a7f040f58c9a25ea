// Social login, classic face: OAuthModule.forRoot signs the user in with a session (the app
// user its callback handler finds or creates through AccountsModule, kept by SessionModule),
// and links more providers to a signed-in user (`/auth/:provider?intent=link`); a home page that
// reads both, `GET /me` behind SessionGuard, unlinking, and the built-in `GET /auth/session`
// and `POST /auth/logout`. `main.ts` decides which providers are real and which use the
// development identity provider, and where users are kept (an embedded SQLite file).
import { Module } from "effect-strata";
import { AccountsModule, type AccountsModuleOptions } from "effect-strata/accounts";
import {
  OAuthModule,
  type OAuthModuleOptions,
  type OAuthProvidersConfig,
  type SupportedProvider,
} from "effect-strata/oauth";
import { SessionModule, type SessionModuleOptions } from "effect-strata/session";
import { AccountsController } from "./AccountsController.js";
import { AppLoginHandler } from "./AppLoginHandler.js";
import { AppUser, newUser } from "./AppUser.js";
import { HOME_OPTIONS, HomeController, type HomeOptions } from "./HomeController.js";
import { Me, MeController } from "./MeController.js";

export { providersFromEnv } from "./providers.js";

/** Where the demo keeps sessions: sealed in the cookie (default), or server-side. */
export type DemoSessionStore = SessionModuleOptions<typeof Me.Type, typeof Me.Encoded>["store"];

/** Where the demo keeps users and their linked accounts: memory (default), or a SQLite file. */
export type DemoAccountStore = AccountsModuleOptions<AppUser, typeof AppUser.Encoded>["store"];

/** The app's root module for the given providers and secrets. */
export const createAppModule = (options: {
  readonly providers: OAuthProvidersConfig;
  /** The session cookie's sealing secret (32 characters or more). */
  readonly sessionSecret: string;
  /** Where sessions live (default: the sealed cookie). */
  readonly sessionStore?: DemoSessionStore;
  /** Where users live (default: memory, gone at exit; `npm start` gives a SQLite file). */
  readonly accountStore?: DemoAccountStore;
  readonly sealingKey?: string;
  /** Where OAuth transactions are kept (Redis when several instances share them). */
  readonly transactionStore?: OAuthModuleOptions["transactionStore"];
  /** The providers that sign in at the development identity provider. */
  readonly development?: ReadonlyArray<SupportedProvider>;
  /** Origins user pictures may be loaded from besides https (the development identity provider). */
  readonly imageOrigins?: ReadonlyArray<string>;
}) => {
  const development = new Set(options.development ?? []);
  const home: HomeOptions = {
    providers: (Object.keys(options.providers) as Array<SupportedProvider>).map((name) => ({
      name,
      development: development.has(name),
    })),
    imageOrigins: options.imageOrigins ?? [],
  };

  @Module({
    imports: [
      AccountsModule.forRoot({
        schema: AppUser,
        createUser: newUser,
        ...(options.accountStore === undefined ? {} : { store: options.accountStore }),
      }),
      SessionModule.forRoot({
        schema: Me,
        secret: options.sessionSecret,
        ...(options.sessionStore === undefined ? {} : { store: options.sessionStore }),
      }),
      OAuthModule.forRoot({
        providers: options.providers,
        callbackHandler: AppLoginHandler,
        // The handler's user becomes the session (its `link` method enables `?intent=link`);
        // the page's sign-out form lands back home.
        session: { logoutRedirect: "/" },
        ...(options.sealingKey === undefined ? {} : { sealingKey: options.sealingKey }),
        ...(options.transactionStore === undefined
          ? {}
          : { transactionStore: options.transactionStore }),
      }),
    ],
    controllers: [HomeController, MeController, AccountsController],
    providers: [AppLoginHandler, { token: HOME_OPTIONS, useValue: home }],
  })
  class AppModule {}
  return AppModule;
};
