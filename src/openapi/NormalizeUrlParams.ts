/**
 * The query as `HttpApiBuilder` hands it to an endpoint's urlParams Schema: a key whose Schema
 * reads an array gets one even when the query gives the key once. The stock function is internal
 * to `@effect/platform`, so the compiled handlers of `StrataHttpApi` carry this copy.
 */
import * as Schema from "effect/Schema";
import type * as AST from "effect/SchemaAST";

/** `true` when the query value for `key` is a single string (else it is read as an array). */
const isSingleStringType = (ast: AST.AST, key?: PropertyKey): boolean => {
  switch (ast._tag) {
    case "StringKeyword":
    case "Literal":
    case "TemplateLiteral":
    case "Enums":
      return true;
    case "TypeLiteral": {
      if (key === undefined) return false;
      const property = ast.propertySignatures.find((ps) => ps.name === key);
      return property !== undefined
        ? isSingleStringType(property.type, key)
        : ast.indexSignatures.some(
            (is) => Schema.is(Schema.make(is.parameter))(key) && isSingleStringType(is.type),
          );
    }
    case "Union":
      return ast.types.some((type) => isSingleStringType(type, key));
    case "Suspend":
      return isSingleStringType(ast.f(), key);
    case "Refinement":
    case "Transformation":
      return isSingleStringType(ast.from, key);
  }
  return false;
};

/** The query as the stock builder hands it to the urlParams Schema. */
export const normalizeUrlParams = (
  params: Readonly<Record<string, string | ReadonlyArray<string>>>,
  ast: AST.AST,
): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const key in params) {
    const value = params[key];
    out[key] = Array.isArray(value) || isSingleStringType(ast, key) ? value : [value];
  }
  return out;
};
