// What Accounts adds to a sign-in (issue 24): a first login (a new user) and a returning one,
// each a full OAuth round trip through the development identity provider over loopback HTTP
// (start, the provider's sign-in page and form, the callback with a session), on two apps that
// differ only in their callback handler: one makes the session from the profile, the other
// through AccountsService on an embedded SQLite file. Interleaved; medians.
//
//   node --conditions=strata-source --import ./scripts/register.mjs bench/accounts-login.ts [rounds]
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
// Strata's source and the root's effect (the bench package has its own copy, not to be mixed).
import * as Schema from "../node_modules/effect/dist/esm/Schema.js";
import { AccountsModule, AccountsService } from "../src/accounts/index.js";
import { type DevUser, startDevIdentityProvider } from "../src/devidp/index.js";
import { Inject, Injectable, Module, StrataApp } from "../src/index.js";
import {
  type OAuthCallbackHandler,
  type OAuthCallbackResult,
  OAuthModule,
} from "../src/oauth/index.js";
import { SessionModule } from "../src/session/index.js";

const rounds = Number(process.argv[2] ?? 200);
const WARMUP = 30;

const User = Schema.Struct({ id: Schema.String, name: Schema.String });
type User = typeof User.Type;

/** The baseline: the session from the profile, no store. */
@Injectable()
class ProfileHandler implements OAuthCallbackHandler<User> {
  handle(result: OAuthCallbackResult): User {
    return { id: result.user.id, name: result.user.name ?? "" };
  }
}

/** Through Accounts: the app user of the provider account, created on its first sign-in. */
@Injectable()
class AccountsHandler implements OAuthCallbackHandler<User> {
  constructor(@Inject(AccountsService) private readonly accounts: AccountsService<User>) {}
  handle(result: OAuthCallbackResult, provider: string): Promise<User> {
    return this.accounts.signIn(provider, result.user);
  }
}

const users: Array<DevUser> = Array.from({ length: WARMUP + rounds }, (_, i) => ({
  key: `user${i}`,
  name: `User ${i}`,
  email: `user${i}@example.com`,
  emailVerified: true,
}));
const client = {
  clientId: "bench-github",
  clientSecret: "bench-github-secret-0123456789",
  redirectUri: "http://localhost:1/auth/github/callback",
};
const idp = await startDevIdentityProvider({ clients: { github: client }, users });
const { authorization, token, api } = idp.endpoints("github");
const oauth = (handler: typeof ProfileHandler | typeof AccountsHandler) =>
  OAuthModule.forRoot({
    providers: { github: { ...client, endpoints: { authorization, token, api } } },
    callbackHandler: handler,
    session: true,
    sealingKey: "bench-sealing-key-0123456789-abcdefghijkl",
  });
const session = SessionModule.forRoot({
  schema: User,
  secret: "bench-session-secret-0123456789-abcdefgh",
});

@Module({ imports: [session, oauth(ProfileHandler)], providers: [ProfileHandler] })
class Baseline {}

const data = await mkdtemp(join(tmpdir(), "strata-bench-accounts-"));
@Module({
  imports: [
    session,
    oauth(AccountsHandler),
    AccountsModule.forRoot({
      schema: User,
      createUser: (profile, { id }) => ({ id, name: profile.name ?? "" }),
      store: { sqlite: { filename: join(data, "accounts.db") } },
    }),
  ],
  providers: [AccountsHandler],
})
class WithAccounts {}

const listen = async (module: ConstructorParameters<typeof StrataApp>[0]) => {
  const app = new StrataApp(module);
  await app.listen(0, "127.0.0.1");
  return { app, base: app.getUrl() };
};

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${name}=`))
    ?.split(";")[0];

/** One sign-in of `user` at `base`, start to session; its wall time in milliseconds. */
const login = async (base: string, user: string): Promise<number> => {
  const t0 = performance.now();
  const started = await fetch(`${base}/auth/github`, { redirect: "manual" });
  const transaction = cookieOf(started, "strata_oauth") ?? "";
  const at = new URL(started.headers.get("location") ?? "");
  const page = await (await fetch(at)).text();
  const request = /name="request" value="([^"]+)"/.exec(page)?.[1] ?? "";
  const posted = await fetch(at.origin + at.pathname, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request, user }).toString(),
  });
  const callback = new URL(posted.headers.get("location") ?? "");
  const done = await fetch(`${base}${callback.pathname}${callback.search}`, {
    redirect: "manual",
    headers: { cookie: transaction },
  });
  const elapsed = performance.now() - t0;
  if (done.status !== 302 || cookieOf(done, "strata_session") === undefined) {
    throw new Error(`${base}: sign-in of ${user} answered ${done.status}: ${await done.text()}`);
  }
  return elapsed;
};

const baseline = await listen(Baseline);
const accounts = await listen(WithAccounts);
const samples = {
  baseline: [] as Array<number>,
  first: [] as Array<number>,
  returning: [] as Array<number>,
};
for (let i = 0; i < WARMUP + rounds; i++) {
  const user = `user${i}`;
  // Interleaved, the order alternating: the baseline, a first sign-in, a returning one.
  const order =
    i % 2 === 0 ? ["baseline", "first", "returning"] : ["returning", "baseline", "first"];
  const times: Record<string, number> = {};
  for (const kind of order) {
    if (kind === "returning" && times.first === undefined) {
      // A returning sign-in needs the user made: a previous round's.
      times.returning = await login(accounts.base, `user${i - 1}`);
    } else {
      times[kind] = await login(kind === "baseline" ? baseline.base : accounts.base, user);
    }
  }
  if (i < WARMUP) continue;
  samples.baseline.push(times.baseline ?? 0);
  samples.first.push(times.first ?? 0);
  samples.returning.push(times.returning ?? 0);
}
await accounts.app.close();
await baseline.app.close();
await idp.close();
await rm(data, { recursive: true, force: true });

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;
/** The median of each round's difference to its baseline: steadier than a difference of medians. */
const paired = (values: ReadonlyArray<number>) =>
  median(values.map((value, i) => value - (samples.baseline[i] ?? 0)));
const base = median(samples.baseline);
const first = median(samples.first);
const returning = median(samples.returning);
console.log(
  `Accounts on a sign-in through the development identity provider (${rounds} rounds, medians)`,
);
console.log("| login | round trip | Accounts adds (medians) | (paired) | target |");
console.log("| --- | --- | --- | --- | --- |");
console.log(`| no Accounts (session from the profile) | ${ms(base)} | | | |`);
console.log(
  `| first (creates the user, SQLite) | ${ms(first)} | ${ms(first - base)} | ${ms(paired(samples.first))} | ≤ 2 ms |`,
);
console.log(
  `| returning (SQLite) | ${ms(returning)} | ${ms(returning - base)} | ${ms(paired(samples.returning))} | ≤ 2 ms |`,
);
