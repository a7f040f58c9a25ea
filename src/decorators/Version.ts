import { MetadataKey } from "../di/metadata.js";
import type { VersionValue } from "../pipeline/Versioning.js";
import { type ClassOrMethodDecorator, setValue } from "./ClassOrMethodDecorator.js";

/**
 * The API version(s) of a controller's routes or of one handler (the method's wins over the
 * controller's, which wins over the app's `defaultVersion`). `VERSION_NEUTRAL` answers any
 * version. Requires versioning enabled on the app.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Version = (version: VersionValue): ClassOrMethodDecorator =>
  setValue(MetadataKey.version, version);
