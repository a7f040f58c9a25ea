// The development identity provider one cluster of demo instances shares (started by
// `scripts/cluster.sh`): loopback, port `DEV_IDP_PORT`, every provider's client with
// `DEV_IDP_CLIENT_SECRET`. Stops on SIGTERM/SIGINT.
import { startDevIdentityProvider } from "effect-strata/devidp";
import { supportedProviders } from "effect-strata/oauth";
import { sharedDevClients } from "./sharedDevClients.js";

const idp = await startDevIdentityProvider({
  clients: sharedDevClients(supportedProviders, process.env),
  port: Number(process.env.DEV_IDP_PORT ?? 0),
});
console.log(`dev-idp: ${idp.url}`);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void idp.close().then(() => process.exit(0)));
}
