// Accounts on the classic face, over real HTTP: AccountsModule.forRoot with an embedded SQLite
// store, AccountsService injected into a controller, failures thrown as AccountsHttpError
// (status and standard body), provider tokens refreshed through the app's OAuthService, and
// stores that fail to start or to answer.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
import { afterAll, describe, expect, it } from "vitest";
import {
  AccountStore,
  AccountStoreError,
  AccountsModule,
  type AccountsModuleOptions,
  AccountsService,
  type ClassicTokens,
} from "../../src/accounts/index.js";
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Module,
  Param,
  Post,
  StartupError,
} from "../../src/index.js";
import { CodeRejected, OAuthHttpError, OAuthService } from "../../src/oauth/index.js";
import type { OAuthUser } from "../../src/oauth/OAuthResult.js";
import { capturingLogger, startedApps } from "../support/started.js";
import { TOKENS_SECRET, unique } from "./support/accountsContract.js";

const User = Schema.Struct({ id: Schema.String, name: Schema.String });
type User = typeof User.Type;

const dir = mkdtempSync(join(tmpdir(), "strata-accounts-classic-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface SignIn {
  readonly profile: OAuthUser;
  readonly tokens?: ClassicTokens & { readonly expiresAt?: string };
}

const tokensOf = (body: SignIn): ClassicTokens | undefined =>
  body.tokens === undefined
    ? undefined
    : {
        ...body.tokens,
        ...(body.tokens.expiresAt === undefined
          ? {}
          : { expiresAt: new Date(body.tokens.expiresAt) }),
      };

@Controller("accounts")
class AccountsController {
  constructor(private readonly accounts: AccountsService<User>) {}

  @Post("signin/:provider")
  @HttpCode(200)
  signIn(@Param("provider") provider: string, @Body() body: SignIn) {
    return this.accounts.signIn(provider, body.profile, tokensOf(body));
  }

  @Post(":id/link/:provider")
  link(@Param("id") id: string, @Param("provider") provider: string, @Body() body: SignIn) {
    return this.accounts.link(id, provider, body.profile, tokensOf(body));
  }

  @Get(":id")
  async list(@Param("id") id: string) {
    return {
      user: (await this.accounts.user(id)) ?? null,
      accounts: await this.accounts.accounts(id),
    };
  }

  @Delete(":id/:provider")
  @HttpCode(204)
  async unlink(@Param("id") id: string, @Param("provider") provider: string) {
    await this.accounts.unlink(id, provider);
  }

  // Returning a provider token on purpose (SECURITY.md 30 allows it).
  @Get(":id/token/:provider")
  async token(@Param("id") id: string, @Param("provider") provider: string) {
    return { token: await this.accounts.providerToken(id, provider) };
  }
}

/** The app's OAuthService as the accounts module sees it: only its refresh is used. */
const refreshCalls: Array<string> = [];
const fakeOAuth = Object.assign(Object.create(OAuthService.prototype) as OAuthService, {
  refreshToken: async (provider: string, refreshToken: string) => {
    refreshCalls.push(`${provider}:${refreshToken}`);
    if (refreshToken === "revoked") {
      throw new OAuthHttpError(new CodeRejected({ provider, oauthError: "invalid_grant" }));
    }
    if (refreshToken === "down") throw new Error("ECONNREFUSED");
    return {
      accessToken: `fresh-for-${refreshToken}`,
      expiresAt: new Date(Date.now() + 3_600_000),
    };
  },
});

@Module({})
class FakeOAuthModule {}

/** The fake OAuthService, visible to every module, as `OAuthModule.forRoot({ global: true })`'s. */
const GlobalFakeOAuth = {
  module: FakeOAuthModule,
  global: true,
  providers: [{ token: OAuthService, useValue: fakeOAuth }],
  exports: [OAuthService],
};

const options = (
  overrides: Partial<AccountsModuleOptions<User, User>> = {},
): AccountsModuleOptions<User, User> => ({
  schema: User,
  createUser: async (user, { id }) => ({ id, name: user.name ?? "" }),
  store: { sqlite: { filename: join(dir, `${unique()}.db`) } },
  tokens: { secret: TOKENS_SECRET },
  ...overrides,
});

const moduleOf = (accounts: AccountsModuleOptions<User, User>) => {
  @Module({
    imports: [GlobalFakeOAuth, AccountsModule.forRoot(accounts)],
    controllers: [AccountsController],
  })
  class AppModule {}
  return AppModule;
};

const start = startedApps();

const call = async (base: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, body: text === "" ? undefined : JSON.parse(text) };
};

describe("AccountsModule.forRoot (classic face)", () => {
  it("signs in, links, lists and unlinks through AccountsService over HTTP", async () => {
    const app = await start(moduleOf(options()));
    const base = app.getUrl();
    const subject = `gh-${unique()}`;
    const first = await call(base, "POST", "/accounts/signin/github", {
      profile: { id: subject, name: "Ada" },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), name: "Ada" });
    const id = first.body.id as string;
    expect(
      (await call(base, "POST", "/accounts/signin/github", { profile: { id: subject } })).body,
    ).toEqual(first.body);
    const linked = await call(base, "POST", `/accounts/${id}/link/google`, {
      profile: { id: `go-${unique()}`, email: "ada@example.com", emailVerified: true },
    });
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({
      provider: "google",
      emailVerified: true,
      hasTokens: false,
    });
    const listed = await call(base, "GET", `/accounts/${id}`);
    expect(listed.body.user).toEqual(first.body);
    expect(listed.body.accounts.map((account: { provider: string }) => account.provider)).toEqual([
      "github",
      "google",
    ]);
    expect((await call(base, "DELETE", `/accounts/${id}/google`)).status).toBe(204);
  });

  it("answers each failure with its status and the standard body", async () => {
    const app = await start(moduleOf(options()));
    const base = app.getUrl();
    const ada = (
      await call(base, "POST", "/accounts/signin/github", { profile: { id: `gh-${unique()}` } })
    ).body;
    const bobSubject = `gh-${unique()}`;
    await call(base, "POST", "/accounts/signin/github", { profile: { id: bobSubject } });

    expect(
      await call(base, "POST", "/accounts/signin/github", { profile: { name: "no id" } }),
    ).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: "The provider's profile cannot be used to sign in" },
    });
    expect(
      await call(base, "POST", `/accounts/${ada.id}/link/github`, { profile: { id: bobSubject } }),
    ).toMatchObject({
      status: 409,
      body: { statusCode: 409, message: "This account is already linked to another user" },
    });
    expect(await call(base, "DELETE", `/accounts/${ada.id}/github`)).toMatchObject({
      status: 409,
      body: { statusCode: 409, message: "The last linked account cannot be unlinked" },
    });
    expect(await call(base, "DELETE", `/accounts/${ada.id}/twitter`)).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: "No account of this provider is linked" },
    });
    expect(
      await call(base, "POST", "/accounts/nobody/link/google", {
        profile: { id: `go-${unique()}` },
      }),
    ).toMatchObject({ status: 404, body: { statusCode: 404, message: "Unknown user" } });
  });

  it("check 32: an expired provider token is refreshed through the app's OAuthService", async () => {
    const app = await start(moduleOf(options()));
    const base = app.getUrl();
    const signIn = (subject: string, refreshToken: string) =>
      call(base, "POST", "/accounts/signin/google", {
        profile: { id: subject },
        tokens: {
          accessToken: "stale",
          refreshToken,
          expiresAt: new Date(Date.now() - 1_000).toISOString(),
        },
      });
    const refreshToken = `r-${unique()}`;
    const ada = (await signIn(`go-${unique()}`, refreshToken)).body;
    const token = await call(base, "GET", `/accounts/${ada.id}/token/google`);
    expect(token).toMatchObject({ status: 200, body: { token: `fresh-for-${refreshToken}` } });
    expect(refreshCalls).toContain(`google:${refreshToken}`);
    // Refused by the provider: 401, the account still linked, no token in the body.
    const eve = (await signIn(`go-${unique()}`, "revoked")).body;
    const refused = await call(base, "GET", `/accounts/${eve.id}/token/google`);
    expect(refused).toMatchObject({
      status: 401,
      body: { statusCode: 401, message: "Sign in with this provider again" },
    });
    expect(refused.text).not.toContain("revoked");
    expect(refused.text).not.toContain("stale");
    expect((await call(base, "GET", `/accounts/${eve.id}`)).body.accounts).toHaveLength(1);
    // The provider down: 502.
    const bob = (await signIn(`go-${unique()}`, "down")).body;
    expect(await call(base, "GET", `/accounts/${bob.id}/token/google`)).toMatchObject({
      status: 502,
      body: { statusCode: 502, message: "The provider is unavailable" },
    });
  });

  it("a store that cannot answer is a 503 that leaks nothing of its cause", async () => {
    const failing = Effect.fail(
      new AccountStoreError({
        message: "SqlAccountStore: findByAccount failed",
        cause: new Error("disk on fire"),
      }),
    );
    const store = Layer.succeed(
      AccountStore,
      AccountStore.of({
        findByAccount: () => failing,
        findUsersByVerifiedEmail: () => failing,
        findUser: () => failing,
        findAccount: () => failing,
        listAccounts: () => failing,
        createUser: () => failing,
        insertAccount: () => failing,
        updateUser: () => failing,
        updateAccount: () => failing,
        removeAccount: () => failing,
        claimRefresh: () => failing,
        releaseRefresh: () => failing,
      }),
    );
    const { logger, lines } = capturingLogger();
    const app = await start(moduleOf(options({ store })), { logger });
    const response = await call(app.getUrl(), "POST", "/accounts/signin/github", {
      profile: { id: "1", email: "ada@example.com" },
    });
    expect(response).toMatchObject({
      status: 503,
      body: { statusCode: 503, message: "Service Unavailable" },
    });
    expect(response.text).not.toContain("disk on fire");
    expect(response.text).not.toContain("ada@example.com");
    expect(lines.map((line) => line.text).join("\n")).not.toContain("ada@example.com");
  });

  it("a store that cannot start fails the app's start with a StartupError", async () => {
    const broken = moduleOf(options({ store: { sqlite: { filename: dir } } }));
    await expect(start(broken)).rejects.toBeInstanceOf(StartupError);
  });
});
