// Realistic provider payloads and shared configuration for the OAuth tests.
import { createHash } from "node:crypto";

export const REDIRECT = (provider: string) => `http://127.0.0.1/auth/${provider}/callback`;

export const SECRET = "client-secret-DO-NOT-LEAK-4f1c";
export const ACCESS_TOKEN = "access-token-DO-NOT-LEAK-9a7e";
export const REFRESH_TOKEN = "refresh-token-DO-NOT-LEAK-33b0";

export const credentials = (provider: string) => ({
  clientId: `${provider}-client-id`,
  clientSecret: SECRET,
  redirectUri: REDIRECT(provider),
});

export const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export const googleUserinfo = {
  sub: "110169484474386276334",
  name: "Ada Lovelace",
  given_name: "Ada",
  family_name: "Lovelace",
  picture: "https://lh3.googleusercontent.com/a/ACg8ocJxVbUq=s96-c",
  email: "ada@example.com",
  email_verified: true,
  locale: "en",
};

export const microsoftUserinfo = {
  sub: "OLu859SGc2Sr9ZsqbkG-QbeLgJlb41KcdiPoLYNpSFA",
  name: "Grace Hopper",
  family_name: "Hopper",
  given_name: "Grace",
  picture: "https://graph.microsoft.com/v1.0/me/photo/$value",
  email: "grace@contoso.com",
};

export const githubUser = {
  login: "octocat",
  id: 583231,
  node_id: "MDQ6VXNlcjU4MzIzMQ==",
  avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4",
  html_url: "https://github.com/octocat",
  type: "User",
  site_admin: false,
  name: "The Octocat",
  company: "@github",
  blog: "https://github.blog",
  location: "San Francisco",
  email: null,
  bio: null,
  public_repos: 8,
  followers: 9000,
  following: 9,
  created_at: "2011-01-25T18:44:36Z",
};

export const githubEmails = [
  {
    email: "583231+octocat@users.noreply.github.com",
    primary: false,
    verified: true,
    visibility: null,
  },
  { email: "unverified@example.com", primary: false, verified: false, visibility: null },
  { email: "octocat@github.com", primary: true, verified: true, visibility: "public" },
];

export const facebookMe = {
  id: "10158566754583392",
  name: "Mark Example",
  email: "mark@example.com",
  picture: {
    data: {
      height: 50,
      is_silhouette: false,
      url: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158566754583392&height=50&width=50&ext=1700000000&hash=AbCd",
      width: 50,
    },
  },
};

export const twitterMe = {
  data: {
    id: "2244994945",
    name: "Developers",
    username: "XDevelopers",
    profile_image_url:
      "https://pbs.twimg.com/profile_images/1683899100922511378/5lY42eHs_normal.jpg",
  },
};

/** A token response with everything. */
export const fullTokens = (extra: Record<string, unknown> = {}) => ({
  access_token: ACCESS_TOKEN,
  token_type: "Bearer",
  expires_in: 3600,
  refresh_token: REFRESH_TOKEN,
  scope: "openid profile email",
  ...extra,
});

/** An unsigned JWT with the given claims (what `decodeIdToken` reads). */
export const idToken = (claims: Record<string, unknown>) => {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256", typ: "JWT" })}.${part(claims)}.${Buffer.from("signature").toString("base64url")}`;
};
