/** One answer of the core's handler, as a test recorded it. */
export interface RecordedAnswer {
  method: string;
  /** The path the core routed on (`/api/...`), still percent-encoded. */
  pathname: string;
  status: number;
  contentType: string;
  body: string;
}

/**
 * Every answer the handlers of `apiTargetStarter` gave in this test file (not those of the Node
 * bridge's direct path, which never build a `Response`): the API contract suite checks them
 * against docs/openapi.json at its end.
 */
export const recordedAnswers: RecordedAnswer[] = [];

/** Records `response` (reading a clone) and returns it untouched. */
export async function recordAnswer(request: Request, response: Response): Promise<Response> {
  const body = request.method === "HEAD" ? "" : await response.clone().text();
  recordedAnswers.push({
    method: request.method,
    pathname: new URL(request.url).pathname,
    status: response.status,
    contentType: (response.headers.get("content-type") ?? "").split(";")[0]!.trim(),
    body,
  });
  return response;
}
