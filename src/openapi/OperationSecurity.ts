import type { ControllerScan, RouteScan } from "../compiler/ControllerScan.js";
import { type SecurityMetadata, securityOf } from "../decorators/OpenApiMetadata.js";
import { StartupError } from "../di/StartupError.js";
import type { GuardLike } from "../pipeline/CanActivate.js";
import type { SecurityScheme } from "./OpenApiDocument.js";

const classOf = (item: unknown): Function =>
  typeof item === "function" ? item : (item as object).constructor;

/**
 * The security requirements of a route: `@ApiSecurity` on its guards (`guards`: the global,
 * controller and method ones), its controller and itself, each name once. The schemes they
 * define are added to `schemes` (two different ones of one name fail); a requirement whose
 * scheme is neither there nor in `knownSchemes` (`openapi.securitySchemes`) fails the start.
 */
export const operationSecurity = (
  scan: ControllerScan,
  route: RouteScan,
  guards: ReadonlyArray<GuardLike>,
  schemes: Record<string, SecurityScheme>,
  knownSchemes: Readonly<Record<string, SecurityScheme>>,
): ReadonlyArray<SecurityMetadata> => {
  const { where } = route;
  const found = [
    ...guards.flatMap((guard) => securityOf(classOf(guard))),
    ...scan.api.security,
    ...route.api.security,
  ];
  const unique = new Map<string, SecurityMetadata>();
  for (const requirement of found) {
    if (requirement.scheme !== undefined) {
      const known = schemes[requirement.name];
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(requirement.scheme)) {
        throw new StartupError({
          message: `OpenAPI: ${where}: two different security schemes are named ${JSON.stringify(requirement.name)}.`,
        });
      }
      schemes[requirement.name] = requirement.scheme;
    }
    if (!unique.has(requirement.name)) unique.set(requirement.name, requirement);
  }
  for (const requirement of unique.values()) {
    if (schemes[requirement.name] === undefined && knownSchemes[requirement.name] === undefined) {
      throw new StartupError({
        message: `OpenAPI: ${where}: the security requirement ${JSON.stringify(requirement.name)} has no scheme: give one to @ApiSecurity or to openapi.securitySchemes.`,
      });
    }
  }
  return [...unique.values()];
};
