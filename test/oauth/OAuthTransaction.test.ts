import { describe, expect, it } from "vitest";
import { OAuthTransaction, transactionJson } from "../../src/oauth/OAuthTransaction.js";

const full: OAuthTransaction = {
  provider: "google",
  state: "nmiJ-veE-dRQNTLFDbEn_6Ev7wxJAfyAuy9AOxhyK0A",
  codeVerifier: "IEqsfX_udDqSsCjgCJj_rZjojF2ZLSUxWtfz9ZhMWNI",
  nonce: "AyGGyLCClubocme9iETcmjIXqxjs25cBBtLKIjOobMQ",
  redirects: { success: "/home?a=1&b=%20", error: "https://app.example.com/oops#x" },
  expiry: 1_700_000_000_000,
  intent: "link",
  linkOwner: "q3Zb0-owner_digest",
};

describe("transactionJson", () => {
  it("writes what JSON.stringify writes, escapes included", () => {
    const transactions: Array<OAuthTransaction> = [
      full,
      { provider: "github", state: "s", redirects: {}, expiry: 1 },
      { provider: "twitter", state: "s", codeVerifier: "v", redirects: { error: "/e" }, expiry: 0 },
      {
        provider: 'my "idp"',
        state: 'a "quoted"\\ state\n\u2028é\u0000',
        nonce: "</script>",
        redirects: { success: "/ü" },
        expiry: 1.5,
      },
    ];
    for (const transaction of transactions) {
      expect(transactionJson(transaction)).toBe(JSON.stringify(transaction));
    }
  });

  it("writes every member of the schema", () => {
    expect(Object.keys(JSON.parse(transactionJson(full)))).toEqual(
      Object.keys(OAuthTransaction.fields),
    );
  });
});
