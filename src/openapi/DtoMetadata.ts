/**
 * What class-validator and class-transformer recorded of a class DTO, read from their metadata
 * storages when they are installed (both optional peers): the DTO description and the mapped
 * types read it, and the mapped types copy it.
 *
 * @since 0.1.0
 */
import { createRequire } from "node:module";

/** One class-validator decorator on a property, as its metadata storage keeps it. */
export interface ValidationMetadata {
  readonly type: string;
  readonly name?: string;
  readonly target: Function | string;
  readonly propertyName: string;
  readonly constraints?: ReadonlyArray<unknown>;
  readonly each?: boolean;
}

interface ValidatorStorage {
  getTargetValidationMetadatas(
    target: Function,
    schema: string,
    always: boolean,
    strictGroups: boolean,
  ): ReadonlyArray<ValidationMetadata>;
  addValidationMetadata(metadata: ValidationMetadata): void;
}

/** One class-transformer decorator on a property (`@Type`, `@Expose`, `@Exclude`, `@Transform`). */
interface TransformerMetadata {
  readonly target: Function;
  readonly propertyName: string | undefined;
  readonly typeFunction?: () => Function;
}

interface TransformerStorage {
  findTypeMetadata(target: Function, propertyName: string): TransformerMetadata | undefined;
  addTypeMetadata(metadata: TransformerMetadata): void;
  addExposeMetadata(metadata: TransformerMetadata): void;
  addExcludeMetadata(metadata: TransformerMetadata): void;
  addTransformMetadata(metadata: TransformerMetadata): void;
  readonly _typeMetadatas: Map<Function, Map<string, TransformerMetadata>>;
  readonly _exposeMetadatas: Map<Function, Map<string | undefined, TransformerMetadata>>;
  readonly _excludeMetadatas: Map<Function, Map<string | undefined, TransformerMetadata>>;
  readonly _transformMetadatas: Map<Function, Map<string, ReadonlyArray<TransformerMetadata>>>;
}

/** class-validator's storage: global, present once any of its decorators ran. */
const validatorStorage = (): ValidatorStorage | undefined =>
  (globalThis as { classValidatorMetadataStorage?: ValidatorStorage })
    .classValidatorMetadataStorage;

let transformer: TransformerStorage | null | undefined;

/** class-transformer's storage, or `undefined` when the package is not installed. */
const transformerStorage = (): TransformerStorage | undefined => {
  if (transformer === undefined) {
    try {
      transformer = (
        createRequire(import.meta.url)("class-transformer/cjs/storage") as {
          defaultMetadataStorage: TransformerStorage;
        }
      ).defaultMetadataStorage;
    } catch {
      transformer = null;
    }
  }
  return transformer ?? undefined;
};

/** The class-validator decorators of `cls` (its parents' included), in declaration order. */
export const validationMetadata = (cls: Function): ReadonlyArray<ValidationMetadata> =>
  validatorStorage()?.getTargetValidationMetadatas(cls, "", true, false) ?? [];

/** The class `@Type(() => X)` gives a property, if any. */
export const transformedType = (cls: Function, property: string): Function | undefined =>
  transformerStorage()?.findTypeMetadata(cls, property)?.typeFunction?.();

/**
 * Gives `target` the class-validator and class-transformer metadata of `source`'s properties
 * that `keep` accepts (what `@nestjs/mapped-types` does), each optional when `optional`.
 */
export const inheritDtoMetadata = (
  source: Function,
  target: Function,
  keep: (property: string) => boolean,
  optional: boolean,
): void => {
  const validator = validatorStorage();
  if (validator !== undefined) {
    const properties = new Set<string>();
    for (const metadata of validator.getTargetValidationMetadatas(source, "", true, false)) {
      if (!keep(metadata.propertyName)) continue;
      properties.add(metadata.propertyName);
      const copy = Object.create(Object.getPrototypeOf(metadata) as object) as ValidationMetadata;
      validator.addValidationMetadata(Object.assign(copy, metadata, { target }));
    }
    if (optional && properties.size > 0) {
      // class-validator's own `@IsOptional()`, as `PartialType` applies it.
      const { IsOptional } = createRequire(import.meta.url)("class-validator") as {
        IsOptional: () => PropertyDecorator;
      };
      for (const property of properties) IsOptional()(target.prototype as object, property);
    }
  }
  const storage = transformerStorage();
  if (storage === undefined) return;
  const copy = <M extends TransformerMetadata>(
    map: Map<Function, Map<string | undefined, M | ReadonlyArray<M>>>,
    add: (metadata: M) => void,
  ) => {
    for (const [cls, byProperty] of map) {
      if (cls !== source && !(source.prototype instanceof cls)) continue;
      for (const [property, entry] of byProperty) {
        if (property === undefined || !keep(property)) continue;
        for (const metadata of Array.isArray(entry) ? entry : [entry as M]) {
          add({ ...metadata, target });
        }
      }
    }
  };
  copy(storage._typeMetadatas, (m) => storage.addTypeMetadata(m));
  copy(storage._exposeMetadatas, (m) => storage.addExposeMetadata(m));
  copy(storage._excludeMetadatas, (m) => storage.addExcludeMetadata(m));
  copy(storage._transformMetadatas, (m) => storage.addTransformMetadata(m));
};

/** The properties class-validator knows on `cls`, in declaration order. */
export const validatedProperties = (cls: Function): ReadonlyArray<string> => [
  ...new Set(validationMetadata(cls).map((m) => m.propertyName)),
];
