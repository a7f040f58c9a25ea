import { StrataModule } from "./Module.js";

/**
 * NestJS's `DiscoveryModule`, for ports: {@link DiscoveryService} and `MetadataScanner` are
 * provided to every module, so importing it changes nothing.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export class DiscoveryModule {}
StrataModule({})(DiscoveryModule);
