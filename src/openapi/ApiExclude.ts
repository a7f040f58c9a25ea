import { OpenApiKey } from "../decorators/OpenApiMetadata.js";
import { writeMetadata } from "../di/metadata.js";

/**
 * Leaves a route out of the API document (it is still served).
 *
 * @since 0.1.0
 * @category openapi
 */
export const ApiExcludeEndpoint =
  (disable = true): MethodDecorator =>
  (target, handler) => {
    writeMetadata(OpenApiKey.exclude, disable, target, handler);
  };

/**
 * Leaves every route of a controller out of the API document (they are still served).
 *
 * @since 0.1.0
 * @category openapi
 */
export const ApiExcludeController =
  (disable = true): ClassDecorator =>
  (target) => {
    writeMetadata(OpenApiKey.exclude, disable, target);
  };
