/** A JSON response; `undefined` bodies become `{}` so every answer parses. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body ?? {}), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** The error body every failure uses: `{"error": message}`. */
export function errorResponse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse({ error: message }, status, headers);
}
