import type { JsonObject } from "../util/json.js";

/**
 * The documentation of one operation, declared on its route (`Route.docs`). Only what the route
 * table cannot say: the generator takes the method, path, security, which parameters exist and
 * whether they are required, whether a JSON body is read, and the answers those imply (401 with
 * an API key; 413 and 415 with a body) from the route itself.
 */
export interface OperationDocs {
  tags: string[];
  operationId: string;
  summary: string;
  description?: string;
  /**
   * Per parameter the route declares (path parameters, then the query), by name: its
   * `description`, `schema` and examples. The generator refuses docs for a parameter the route
   * does not have, and a declared parameter without docs.
   */
  parameters?: Record<string, JsonObject>;
  /**
   * Optional request headers the operation reads besides `x-api-key` (e.g. `Idempotency-Key`), by
   * name: their `description`, `schema` and examples. Listed as `in: header` parameters.
   */
  headers?: Record<string, JsonObject>;
  /** The `application/json` media type of the body (schema, examples), for routes whose input is the body. */
  requestBody?: JsonObject;
  /** Answers by status, apart from those the route table implies. */
  responses: Record<string, JsonObject>;
}
