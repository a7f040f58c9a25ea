import * as Cookies from "@effect/platform/Cookies";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it } from "vitest";
import { setTransactionCookie, transactionCookie } from "../../src/oauth/TransactionCookie.js";

/** What the platform's cookie serializer writes for the same cookie. */
const platform = (value: string, secure: boolean) =>
  Cookies.serializeCookie(
    Cookies.unsafeMakeCookie(secure ? "__Host-strata_oauth" : "strata_oauth", value, {
      maxAge: "10 minutes",
      path: "/",
      httpOnly: true,
      secure,
      sameSite: "lax",
    }),
  );

describe("transaction cookie", () => {
  it("is written exactly as the platform's serializer writes it", () => {
    for (const value of ["v1.AbC-_9", "a".repeat(43), "needs encoding: ;,= é"]) {
      for (const secure of [false, true]) {
        expect(transactionCookie(value, secure)).toBe(platform(value, secure));
      }
    }
    expect(transactionCookie("v1.x", true)).toBe(
      "__Host-strata_oauth=v1.x; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax",
    );
  });

  it("a value with CR, LF or separators cannot split the header", () => {
    const header = transactionCookie("x\r\nSet-Cookie: evil=1; Path=/", false);
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toBe(
      "strata_oauth=x%0D%0ASet-Cookie%3A%20evil%3D1%3B%20Path%3D%2F; Max-Age=600; Path=/; HttpOnly; SameSite=Lax",
    );
  });

  it("setTransactionCookie keeps cookies set through the Cookies API", () => {
    const response = setTransactionCookie(
      HttpServerResponse.empty().pipe(HttpServerResponse.unsafeSetCookie("sid", "1")),
      "v1.abc",
      false,
    );
    expect(response.headers["set-cookie"]).toBe(transactionCookie("v1.abc", false));
    expect(Cookies.toSetCookieHeaders(response.cookies)).toEqual(["sid=1"]);
  });
});
