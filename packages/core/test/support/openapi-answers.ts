import { readFile } from "node:fs/promises";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { RecordedAnswer } from "./recorded-answers.js";

type Json = Record<string, unknown>;

/** Where the document's components live for ajv: every `#/components/...` ref points here. */
const documentId = "https://mailpulse.invalid/openapi.json";

interface Operation {
  method: string;
  template: string;
  matcher: RegExp;
  responses: Record<string, Json>;
}

/**
 * Checks recorded answers against docs/openapi.json with ajv (JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1): each answer's operation lists its status and media type, and a JSON body conforms
 * to the listed schema. Returns one line per violation; empty when every answer conforms.
 */
export async function openApiViolations(answers: readonly RecordedAnswer[]): Promise<string[]> {
  const text = await readFile(new URL("../../../../docs/openapi.json", import.meta.url), "utf8");
  const doc = JSON.parse(text.replaceAll('"#/components/', `"${documentId}#/components/`)) as {
    paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
    components: Json & { responses: Record<string, Json> };
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: documentId, components: doc.components });

  const operations: Operation[] = Object.entries(doc.paths)
    .flatMap(([template, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method: method.toUpperCase(),
        template,
        matcher: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]*")}$`),
        responses: operation.responses,
      })),
    )
    // Literal paths before templated ones: /sending-domains/verify is not /sending-domains/{id}.
    .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));

  const resolve = (node: Json): Json => {
    const ref = node.$ref;
    if (typeof ref !== "string") return node;
    const pointer = ref.slice(ref.indexOf("#/") + 2).split("/");
    let target: unknown = doc;
    for (const part of pointer) target = (target as Json)[part];
    return resolve(target as Json);
  };

  const violations: string[] = [];
  const validators = new Map<object, ReturnType<typeof ajv.compile>>();
  for (const answer of answers) {
    const method = answer.method === "HEAD" ? "GET" : answer.method;
    const operation = operations.find(
      (entry) => entry.method === method && entry.matcher.test(answer.pathname),
    );
    const where = `${answer.method} ${answer.pathname.slice(0, 120)} -> ${answer.status}`;
    // Answers of no operation (unknown paths, wrong methods) are the router's 404/405: JSON errors.
    const listed = operation?.responses[String(answer.status)];
    if (!operation) {
      if (![404, 405].includes(answer.status)) violations.push(`${where}: no documented operation`);
      continue;
    }
    if (!listed) {
      violations.push(`${where}: status not documented for ${operation.method} ${operation.template}`);
      continue;
    }
    const response = resolve(listed);
    const content = (response.content ?? {}) as Record<string, { schema?: Json }>;
    if (answer.method === "HEAD" || Object.keys(content).length === 0) continue;
    const media = content[answer.contentType];
    if (!media) {
      violations.push(`${where}: media type ${answer.contentType} not documented`);
      continue;
    }
    if (answer.contentType !== "application/json" || !media.schema) continue;
    let validator = validators.get(media.schema);
    if (!validator) {
      validator = ajv.compile(media.schema);
      validators.set(media.schema, validator);
    }
    if (!validator(JSON.parse(answer.body))) {
      violations.push(`${where}: ${ajv.errorsText(validator.errors)} in ${answer.body.slice(0, 200)}`);
    }
  }
  return violations;
}
