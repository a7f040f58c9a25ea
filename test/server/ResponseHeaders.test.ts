import * as Cookies from "@effect/platform/Cookies";
import * as Headers from "@effect/platform/Headers";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it } from "vitest";
import {
  addDefaultHeaders,
  setResponseHeaders,
} from "../../src/server/internal/ResponseHeaders.js";

const json = () =>
  HttpServerResponse.unsafeJson(
    { hello: "world" },
    { status: 201, headers: { "x-own": "route", vary: "Accept" } },
  ).pipe(HttpServerResponse.unsafeSetCookie("sid", "abc"));

describe("ResponseHeaders", () => {
  it("setResponseHeaders: the given values win; everything else is kept; the input is untouched", () => {
    const response = json();
    const before = { ...response.headers };
    const result = setResponseHeaders(response, { vary: "Origin", "x-added": "1" });
    expect(HttpServerResponse.isServerResponse(result)).toBe(true);
    expect(Headers.isHeaders(result.headers)).toBe(true);
    expect({ ...result.headers }).toEqual({ ...before, vary: "Origin", "x-added": "1" });
    expect(result.status).toBe(201);
    expect(result.body).toBe(response.body);
    expect(Cookies.toSetCookieHeaders(result.cookies)).toEqual(["sid=abc"]);
    expect({ ...response.headers }).toEqual(before);
  });

  it("addDefaultHeaders: the response's own values win", () => {
    const response = json();
    const result = addDefaultHeaders(response, { vary: "Origin", "x-frame-options": "DENY" });
    expect(result.headers.vary).toBe("Accept");
    expect(result.headers["x-frame-options"]).toBe("DENY");
    expect(result.headers["content-type"]).toBe("application/json");
    expect(response.headers["x-frame-options"]).toBeUndefined();
  });

  it("gives what HttpServerResponse.setHeaders gives, for every kind of body", () => {
    const responses = [
      json(),
      HttpServerResponse.text("hi", { status: 418 }),
      HttpServerResponse.empty({ status: 204 }),
      HttpServerResponse.redirect("/next", { status: 303 }),
      HttpServerResponse.uint8Array(new Uint8Array([1, 2])),
    ];
    for (const response of responses) {
      const added = { "x-a": "1", "content-type": "text/x-test" };
      const expected = HttpServerResponse.setHeaders(response, added);
      const actual = setResponseHeaders(response, added);
      expect({ ...actual.headers }).toEqual({ ...expected.headers });
      expect([actual.status, actual.statusText, actual.body]).toEqual([
        expected.status,
        expected.statusText,
        expected.body,
      ]);
    }
  });
});
