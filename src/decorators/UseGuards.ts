import { MetadataKey } from "../di/metadata.js";
import type { GuardLike } from "../pipeline/CanActivate.js";
import type { ClassOrMethodDecorator } from "./ClassOrMethodDecorator.js";
import { enhancerList } from "./enhancerList.js";

const UseGuardsKind = {
  decorator: "UseGuards",
  noun: "a guard",
  method: "canActivate",
  key: MetadataKey.guards,
};

/**
 * Guards a controller (every route) or one handler. Guards run in order, global first, then
 * the controller's, then the method's; the first to deny stops the request with 403.
 *
 * An argument that is neither a class nor an object with `canActivate()` (`undefined` from an
 * import cycle, say) throws at decoration time, naming the class, the method and its position.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UseGuards = (...guards: ReadonlyArray<GuardLike>): ClassOrMethodDecorator =>
  enhancerList(UseGuardsKind, guards);
