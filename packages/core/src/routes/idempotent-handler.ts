import type { RouteContext } from "../http/route.js";
import type { IdempotencyService } from "../services/idempotency-service.js";

/** The request header that makes a sending route idempotent. */
export const idempotencyKeyHeader = "Idempotency-Key";

/**
 * Runs a sending route's operation under its request's `Idempotency-Key` when it has one
 * (docs/idempotency.md); without the header the operation just runs. The first request answers
 * as usual; repeats get the first answer's status and body byte for byte, with
 * `Idempotent-Replayed: true`.
 */
export async function handleIdempotently(
  idempotency: IdempotencyService,
  context: RouteContext<unknown, unknown, unknown>,
  route: { operation: string; successStatus: number },
  execute: () => Promise<unknown>,
): Promise<unknown> {
  const key = context.request.headers.get(idempotencyKeyHeader);
  if (key === null) return execute();
  const answer = await idempotency.run(
    context.organizationId,
    key,
    { operation: route.operation, input: context.rawInput, successStatus: route.successStatus },
    execute,
  );
  return new Response(answer.body, {
    status: answer.status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      ...(answer.replayed ? { "idempotent-replayed": "true" } : {}),
    },
  });
}
