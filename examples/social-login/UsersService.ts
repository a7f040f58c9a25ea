// The app's users, in memory (a database in a real app), each linked to one provider account.
import { Injectable } from "strata";
import type { OAuthCallbackResult, SupportedProvider } from "strata/oauth";

/** A user of the app, linked to one provider account. */
export interface AppUser {
  readonly id: number;
  readonly provider: SupportedProvider;
  readonly providerId: string;
  readonly email?: string;
  readonly name: string;
  readonly picture?: string;
  readonly role: "user" | "admin";
  readonly tenantId: string;
}

/** Finds or creates the user of a provider account. */
@Injectable()
export class UsersService {
  private readonly byAccount = new Map<string, AppUser>();

  /** The user of a provider account, created on first sign-in. */
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
      ...(result.user.picture === undefined ? {} : { picture: result.user.picture }),
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
