import type { z } from "zod";
import type { JsonValue } from "../util/json.js";

/** A JSON-like value that is, or holds, zod schemas still to be written as JSON Schema. */
export type DocsValue = JsonValue | z.ZodType | DocsValue[] | { [key: string]: DocsValue };

/** Part of an operation's documentation: JSON, where any `schema` may be a zod schema. */
export type DocsObject = { [key: string]: DocsValue };

/**
 * The documentation of one operation, declared on its route (`Route.docs`). Only what the route
 * table and its schemas cannot say: the generator takes the method, path, security, the
 * parameters (their schemas, whether required, their `.describe()`), the request body's schema,
 * and the answers those imply (401 with an API key; 413 and 415 with a body) from the route.
 * A `schema` anywhere in the docs may be a zod schema: it is written as JSON Schema, a `$ref`
 * to `#/components/schemas/<id>` when it has a `.meta({ id })`.
 */
export interface OperationDocs {
  tags: string[];
  operationId: string;
  summary: string;
  description?: string;
  /**
   * Per parameter the route declares (path parameters, then the query), by name: what is added to
   * (or replaces in) what its schema says: a `description` the schema lacks, examples. The
   * generator refuses docs for a parameter the route does not have, and a declared parameter
   * described nowhere.
   */
  parameters?: Record<string, DocsObject>;
  /**
   * Optional request headers the operation reads besides `x-api-key` (e.g. `Idempotency-Key`), by
   * name: their `description`, `schema` and examples. Listed as `in: header` parameters.
   */
  headers?: Record<string, DocsObject>;
  /**
   * Added to the `application/json` media type of the body (examples), for routes whose input is
   * the body; its `schema` is the route's input schema unless given here.
   */
  requestBody?: DocsObject;
  /**
   * The whole `requestBody` object of a route without a body `input` that reads its body itself
   * (an HTML form, an SNS notification's JSON sent as `text/plain`), written as given. Such a
   * route lists its own 413 and 415 answers: the generator implies them only for `input` bodies.
   */
  ownRequestBody?: DocsObject;
  /** Answers by status, apart from those the route table implies. */
  responses: Record<string, DocsObject>;
}
