// The app's own tokens: HMAC-SHA256, JWT-shaped, one hour. Provider tokens never leave the
// server; this is what the browser (session cookie) and API clients (bearer) hold.
import { createHmac, timingSafeEqual } from "node:crypto";
import { Inject, Injectable } from "strata";
import type { AppUser } from "./UsersService.js";

/** The secret the app signs its own tokens with. */
export const APP_TOKEN_SECRET = Symbol("APP_TOKEN_SECRET");

/** How long an app token lives, in seconds. */
export const APP_TOKEN_SECONDS = 3600;

/** Issues and checks the app's tokens. */
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
      exp: Math.floor(Date.now() / 1000) + APP_TOKEN_SECONDS,
    })}`;
    return `${body}.${this.sign(body)}`;
  }

  /** The claims of a valid, unexpired token; `undefined` otherwise. */
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
