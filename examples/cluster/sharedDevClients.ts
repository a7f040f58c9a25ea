// Several instances of the demo sign in at ONE development identity provider (started by
// `scripts/cluster.sh`, see ./devIdp.ts): every instance and the provider must agree on the
// clients, so their secret comes from the environment instead of being drawn per process.
import type { DevClients } from "effect-strata/devidp";
import type { SupportedProvider } from "effect-strata/oauth";
import { devClients } from "../social-login/providers.js";

/**
 * The development clients of `names` with `DEV_IDP_CLIENT_SECRET` as their secret (the
 * callback URLs from `OAUTH_REDIRECT_URI`, as one instance has them).
 */
export const sharedDevClients = (
  names: ReadonlyArray<SupportedProvider>,
  env: NodeJS.ProcessEnv,
): DevClients => {
  const secret = env.DEV_IDP_CLIENT_SECRET;
  if (secret === undefined || secret.length < 16) {
    throw new Error("DEV_IDP_CLIENT_SECRET (16 characters or more) is needed with DEV_IDP_URL");
  }
  return Object.fromEntries(
    Object.entries(devClients(names, env)).map(([name, client]) => [
      name,
      { ...client, clientSecret: secret },
    ]),
  ) as DevClients;
};
