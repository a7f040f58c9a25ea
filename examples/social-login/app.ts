// Social login, classic face: OAuthModule.forRoot with a callback handler that turns the
// provider's answer into the app's own token and user record (the spec's example).
import { createHmac, timingSafeEqual } from "node:crypto";
import { Controller, Get, Headers, Inject, Injectable, Module, UnauthorizedError } from "strata";
import {
  type OAuthCallbackHandler,
  type OAuthCallbackResult,
  OAuthModule,
  type OAuthProvidersConfig,
  type SupportedProvider,
} from "strata/oauth";

/** A user of the app, linked to one provider account. */
export interface AppUser {
  readonly id: number;
  readonly provider: SupportedProvider;
  readonly providerId: string;
  readonly email?: string;
  readonly name: string;
  readonly role: "user" | "admin";
  readonly tenantId: string;
}

/** The app's users, in memory (a database in a real app). */
@Injectable()
export class UsersService {
  private readonly byAccount = new Map<string, AppUser>();

  /** Finds the user of a provider account, or creates it. */
  upsert(
    provider: SupportedProvider,
    result: OAuthCallbackResult,
  ): { user: AppUser; isNew: boolean } {
    const key = `${provider}:${result.user.id}`;
    const existing = this.byAccount.get(key);
    if (existing !== undefined) return { user: existing, isNew: false };
    const user: AppUser = {
      id: this.byAccount.size + 1,
      provider,
      providerId: result.user.id,
      ...(result.user.email === undefined ? {} : { email: result.user.email }),
      name: result.user.name ?? "Anonymous", // the provider may not send a name
      role: "user",
      tenantId: "default",
    };
    this.byAccount.set(key, user);
    return { user, isNew: true };
  }

  find(id: number): AppUser | undefined {
    return [...this.byAccount.values()].find((user) => user.id === id);
  }
}

/** The secret the app signs its own tokens with. */
export const APP_TOKEN_SECRET = Symbol("APP_TOKEN_SECRET");

/** Issues and checks the app's own tokens (HMAC-SHA256, JWT-shaped, one hour). */
@Injectable()
export class TokenService {
  constructor(@Inject(APP_TOKEN_SECRET) private readonly secret: string) {}

  issue(user: AppUser): string {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const body = `${part({ alg: "HS256", typ: "JWT" })}.${part({
      sub: String(user.id),
      email: user.email,
      role: user.role,
      tenantId: user.tenantId,
      exp: Math.floor(Date.now() / 1000) + 3600,
    })}`;
    return `${body}.${this.sign(body)}`;
  }

  verify(token: string): { sub: string } | undefined {
    const [header, payload, signature] = token.split(".");
    if (header === undefined || payload === undefined || signature === undefined) return undefined;
    const expected = Buffer.from(this.sign(`${header}.${payload}`));
    const actual = Buffer.from(signature);
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as {
      sub: string;
      exp: number;
    };
    return claims.exp > Date.now() / 1000 ? claims : undefined;
  }

  private sign(body: string): string {
    return createHmac("sha256", this.secret).update(body).digest("base64url");
  }
}

/** What the built-in callback route answers after a successful login. */
@Injectable()
export class AppLoginHandler implements OAuthCallbackHandler {
  constructor(
    @Inject(UsersService) private readonly users: UsersService,
    @Inject(TokenService) private readonly tokens: TokenService,
  ) {}

  async handle(result: OAuthCallbackResult, provider: SupportedProvider) {
    const { user, isNew } = this.users.upsert(provider, result);
    // Provider tokens stay here: store them encrypted if the app needs them later.
    return { token: this.tokens.issue(user), user, isNewUser: isNew };
  }
}

/** `GET /me` with `Authorization: Bearer <app token>`. */
@Controller("me")
export class MeController {
  constructor(
    @Inject(UsersService) private readonly users: UsersService,
    @Inject(TokenService) private readonly tokens: TokenService,
  ) {}

  @Get()
  me(@Headers("authorization") authorization?: string) {
    const claims = this.tokens.verify(authorization?.replace(/^Bearer /, "") ?? "");
    const user = claims === undefined ? undefined : this.users.find(Number(claims.sub));
    if (user === undefined) throw new UnauthorizedError();
    return user;
  }
}

/** The providers configured in `env` (`<PROVIDER>_CLIENT_ID`, `_CLIENT_SECRET`, `OAUTH_REDIRECT_URI`). */
export const providersFromEnv = (env: NodeJS.ProcessEnv = process.env): OAuthProvidersConfig => {
  const redirect = (provider: string) =>
    (
      env.OAUTH_REDIRECT_URI ?? `http://localhost:${env.PORT ?? 3000}/auth/{provider}/callback`
    ).replaceAll("{provider}", provider);
  const entry = (provider: SupportedProvider, secretOptional = false) => {
    const prefix = provider.toUpperCase();
    const clientId = env[`${prefix}_CLIENT_ID`];
    const clientSecret = env[`${prefix}_CLIENT_SECRET`];
    if (clientId === undefined || (clientSecret === undefined && !secretOptional)) return {};
    return {
      [provider]: { clientId, clientSecret: clientSecret ?? null, redirectUri: redirect(provider) },
    };
  };
  return {
    ...entry("google"),
    ...entry("microsoft", true),
    ...entry("github"),
    ...entry("facebook"),
    ...entry("twitter", true),
  } as OAuthProvidersConfig;
};

/** The app's root module for the given providers and secrets. */
export const createAppModule = (options: {
  readonly providers: OAuthProvidersConfig;
  readonly tokenSecret: string;
  readonly sealingKey?: string;
}) => {
  @Module({
    imports: [
      OAuthModule.forRoot({
        providers: options.providers,
        callbackHandler: AppLoginHandler,
        ...(options.sealingKey === undefined ? {} : { sealingKey: options.sealingKey }),
      }),
    ],
    controllers: [MeController],
    providers: [
      UsersService,
      TokenService,
      AppLoginHandler,
      { token: APP_TOKEN_SECRET, useValue: options.tokenSecret },
    ],
  })
  class AppModule {}
  return AppModule;
};
