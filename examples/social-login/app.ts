// Social login, classic face: OAuthModule.forRoot with a callback handler that signs the user
// in to the app (its own token in a session cookie), a home page, and `GET /me` for API
// clients. `main.ts` decides which providers are real and which use the development
// identity provider.
import { Module } from "strata";
import { OAuthModule, type OAuthProvidersConfig, type SupportedProvider } from "strata/oauth";
import { AppLoginHandler } from "./AppLoginHandler.js";
import { HOME_OPTIONS, HomeController, type HomeOptions } from "./HomeController.js";
import { MeController } from "./MeController.js";
import { APP_TOKEN_SECRET, TokenService } from "./TokenService.js";
import { UsersService } from "./UsersService.js";

export { providersFromEnv } from "./providers.js";

/** The app's root module for the given providers and secrets. */
export const createAppModule = (options: {
  readonly providers: OAuthProvidersConfig;
  readonly tokenSecret: string;
  readonly sealingKey?: string;
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
      OAuthModule.forRoot({
        providers: options.providers,
        callbackHandler: AppLoginHandler,
        ...(options.sealingKey === undefined ? {} : { sealingKey: options.sealingKey }),
      }),
    ],
    controllers: [HomeController, MeController],
    providers: [
      UsersService,
      TokenService,
      AppLoginHandler,
      { token: APP_TOKEN_SECRET, useValue: options.tokenSecret },
      { token: HOME_OPTIONS, useValue: home },
    ],
  })
  class AppModule {}
  return AppModule;
};
