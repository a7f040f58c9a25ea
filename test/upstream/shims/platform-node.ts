// `@effect/platform-node` as the upstream suites import it: `NodeHttpServer.layerTest` is Strata's server.
import * as StockNodeHttpServer from "@effect/platform-node/NodeHttpServer";
import { layerTest } from "../strata.js";

export * from "@effect/platform-node";

export const NodeHttpServer = { ...StockNodeHttpServer, layerTest };
