// The memory account store: the accounts contract.
import * as Effect from "effect/Effect";
import { MemoryAccountStore } from "../../src/accounts/index.js";
import { accountStoreContract } from "./support/accountsContract.js";

accountStoreContract("MemoryAccountStore", () => ({
  layer: MemoryAccountStore.layer(),
  // What the store keeps is what it gives back: its records, as they are.
  raw: (store, userId) =>
    Effect.map(store.listAccounts(userId), (records) => JSON.stringify(records)),
}));
