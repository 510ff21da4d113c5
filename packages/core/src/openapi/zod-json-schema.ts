import { z } from "zod";
import type { DocsValue } from "../http/operation-docs.js";
import type { JsonObject, JsonValue } from "../util/json.js";

/** Where a schema with a `.meta({ id })` is placed in the document. */
const componentRef = (id: string) => `#/components/schemas/${id}`;

/** Tidies what `z.toJSONSchema` writes, for a document read by people and by OpenAPI tools. */
function tidy({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) {
  // zod bounds every integer by the safe range; an answer's count says nothing of the kind.
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  // zod keeps a transform's examples for its output only; a request's examples are of its input.
  // (Not beside a `$ref`: a described use of a component inherits the component's examples.)
  const meta = z.globalRegistry.get(zodSchema as z.ZodType);
  if (meta?.examples !== undefined && jsonSchema.$ref === undefined) jsonSchema.examples = meta.examples;
}

/**
 * Turns every zod schema found in `value` into JSON Schema (their input side: what a client
 * sends, and what an answer holds, since answer schemas parse nothing), in one `z.toJSONSchema`
 * run over a registry holding them and every schema with a `.meta({ id })`: a schema with an id
 * becomes a `$ref` to `#/components/schemas/<id>`. Returns the converted value and the components
 * it refers to, directly or through other components.
 */
export function convertSchemas<T>(value: DocsValue): { value: T; components: Record<string, JsonObject> } {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of z.globalRegistry._idmap) registry.add(schema, { id });
  const inline = new Map<z.ZodType, string>();
  const collect = (node: DocsValue): void => {
    if (node instanceof z.ZodType) {
      if (!registry.has(node) && !inline.has(node)) {
        inline.set(node, `__inline${inline.size}`);
        registry.add(node, { id: `__inline${inline.size - 1}` });
      }
    } else if (Array.isArray(node)) node.forEach(collect);
    else if (node !== null && typeof node === "object") Object.values(node).forEach(collect);
  };
  collect(value);

  const { schemas } = z.toJSONSchema(registry, {
    io: "input",
    uri: componentRef,
    unrepresentable: "any",
    override: tidy,
  }) as { schemas: Record<string, JsonObject> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }

  const replace = (node: DocsValue): JsonValue => {
    if (node instanceof z.ZodType) {
      const id = inline.get(node);
      return id === undefined ? { $ref: componentRef(registry.get(node)!.id) } : schemas[id]!;
    }
    if (Array.isArray(node)) return node.map(replace);
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, replace(item)]));
    }
    return node;
  };
  const used = new Set<string>();
  /** Notes the components `node` refers to, transitively. */
  const markUsed = (node: JsonValue): void => {
    for (const [, id] of JSON.stringify(node).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (id === undefined || used.has(id)) continue;
      used.add(id);
      const schema = schemas[id];
      if (schema) markUsed(schema);
    }
  };
  const converted = replace(value);
  markUsed(converted);
  const components = Object.fromEntries(
    [...used].sort().flatMap((id) => (schemas[id] ? [[id, schemas[id]]] : [])),
  );
  return { value: converted as T, components };
}
