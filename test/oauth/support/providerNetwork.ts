// What each live provider's endpoints answer in a successful login, for route tests.
import type { SupportedProvider } from "../../../src/oauth/index.js";
import {
  facebookMe,
  fullTokens,
  githubEmails,
  githubUser,
  googleUserinfo,
  microsoftUserinfo,
  twitterMe,
} from "../fixtures.js";
import type { mockNetwork, Reply } from "./network.js";

type Net = ReturnType<typeof mockNetwork>;

/** The token endpoint of each provider (arctic's constants; microsoft with tenant `common`). */
export const tokenEndpoint: Record<SupportedProvider, string> = {
  google: "https://oauth2.googleapis.com/token",
  microsoft: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
  github: "https://github.com/login/oauth/access_token",
  facebook: "https://graph.facebook.com/v16.0/oauth/access_token",
  twitter: "https://api.twitter.com/2/oauth2/token",
};

/** Mocks the profile endpoint(s) of `provider`. */
export const mockProfile = (net: Net, provider: SupportedProvider, reply?: Reply): void => {
  switch (provider) {
    case "google":
      net.on(
        "GET",
        "https://openidconnect.googleapis.com/v1/userinfo",
        reply ?? { json: googleUserinfo },
      );
      return;
    case "microsoft":
      net.on(
        "GET",
        "https://graph.microsoft.com/oidc/userinfo",
        reply ?? { json: microsoftUserinfo },
      );
      return;
    case "github":
      net.on("GET", "https://api.github.com/user", reply ?? { json: githubUser });
      net.on("GET", "https://api.github.com/user/emails", { json: githubEmails });
      return;
    case "facebook":
      net.on("GET", "https://graph.facebook.com/me", reply ?? { json: facebookMe });
      return;
    case "twitter":
      net.on("GET", "https://api.twitter.com/2/users/me", reply ?? { json: twitterMe });
      return;
  }
};

/** Mocks a whole successful login at `provider`: token endpoint and profile. */
export const mockLogin = (
  net: Net,
  provider: SupportedProvider,
  token: Reply = { json: fullTokens() },
): void => {
  net.on("POST", tokenEndpoint[provider], token);
  mockProfile(net, provider);
};

/** The token requests the mock saw. */
export const tokenRequests = (net: Net) =>
  net.seen.filter(
    (s) => s.method === "POST" && Object.values(tokenEndpoint).includes(`${s.origin}${s.path}`),
  );
