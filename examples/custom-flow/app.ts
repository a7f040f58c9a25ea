// The spec's custom-flow pattern: the app's own login routes around OAuthService, with the
// state, PKCE verifier and OpenID nonce kept in an httpOnly, SameSite=Lax cookie and the state
// compared with validateState on the callback. The built-in routes are turned off.
import {
  Controller,
  Get,
  Headers,
  Inject,
  isHttpError,
  Module,
  Param,
  Query,
  Res,
  StrataResponse,
  UnauthorizedError,
} from "effect-strata";
import {
  clearFlowCookie,
  flowCookie,
  OAuthModule,
  type OAuthProvidersConfig,
  OAuthService,
  readFlowCookie,
  type SupportedProvider,
} from "effect-strata/oauth";

/** Whether cookies get `Secure` and the `__Host-` prefix (https deployments). */
export const SECURE_COOKIES = Symbol("SECURE_COOKIES");

@Controller("login")
export class LoginController {
  constructor(
    @Inject(OAuthService) private readonly oauth: OAuthService,
    @Inject(SECURE_COOKIES) private readonly secure: boolean,
  ) {}

  /**
   * Step 1: build the provider URL, keep state, verifier and nonce in a cookie, redirect. The
   * state is bound to the provider: a callback at another provider's route is refused.
   */
  @Get(":provider")
  start(@Param("provider") provider: SupportedProvider, @Res() res: StrataResponse) {
    const authorization = this.oauth.getAuthorizationUrl(provider, undefined);
    res.setHeader("cache-control", "no-store");
    res.setHeader("set-cookie", flowCookie(authorization, this.secure));
    res.redirect(authorization.url);
  }

  /** Steps 2 and 3: compare the states, then exchange the code and answer. */
  @Get(":provider/callback")
  async callback(
    @Param("provider") provider: SupportedProvider,
    @Query("code") code: string,
    @Query("state") state: string,
    @Headers("cookie") cookie: string | undefined,
    @Res() res: StrataResponse,
  ) {
    const stored = readFlowCookie(cookie);
    res.setHeader("cache-control", "no-store");
    res.setHeader("set-cookie", clearFlowCookie(this.secure)); // single use, whatever happens
    try {
      if (stored === undefined || !this.oauth.validateState(state, stored.state)) {
        throw new UnauthorizedError("Invalid state");
      }
      const result = await this.oauth.handleCallback(
        provider,
        code,
        state,
        stored.codeVerifier,
        stored.nonce,
      );
      // Look the user up and issue the app's own token here; provider tokens stay server-side.
      res.json({ provider, user: result.user, hasRefreshToken: result.refreshToken !== undefined });
    } catch (error) {
      // A refusal answers in the standard shape, and the cookie is cleared all the same.
      if (!isHttpError(error)) throw error;
      res.status(error.statusCode).json({ statusCode: error.statusCode, message: error.message });
    }
  }
}

/** The app's root module: OAuthModule without its built-in routes, and the login controller. */
export const createAppModule = (options: {
  readonly providers: OAuthProvidersConfig;
  readonly secureCookies?: boolean;
}) => {
  @Module({
    imports: [OAuthModule.forRoot({ providers: options.providers, routes: false })],
    controllers: [LoginController],
    providers: [{ token: SECURE_COOKIES, useValue: options.secureCookies ?? false }],
  })
  class AppModule {}
  return AppModule;
};
