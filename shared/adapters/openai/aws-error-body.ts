/** The most bytes of an error body read to reshape it: AWS errors are a line or two. */
const ERROR_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * An AWS-shaped error answer (`{"message": ...}` or `{"Message": ...}`, the kind in the
 * `x-amzn-ErrorType` header) in the shape the openai SDK reads (`{"error": {"message", "type"}}`):
 * the SDK drops any other body, and with it the only words that tell a missing model access from
 * a missing IAM action. Success and OpenAI-shaped errors pass unchanged; so does a body over
 * 16 KiB or one that is not JSON.
 */
export async function awsErrorInOpenAiShape(response: Response): Promise<Response> {
  if (response.ok || response.body === null) return response;
  const announced = Number(response.headers.get('content-length') ?? 0);
  if (announced > ERROR_BODY_LIMIT_BYTES) return response;
  const { status, statusText, headers } = response;
  const text = await response.text();
  const rebuilt = (body: string) => new Response(body, { status, statusText, headers });
  if (text.length > ERROR_BODY_LIMIT_BYTES) return rebuilt(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return rebuilt(text);
  }
  if (typeof parsed !== 'object' || parsed === null || 'error' in parsed) return rebuilt(text);
  const fields = parsed as Record<string, unknown>;
  const message = fields.message ?? fields.Message;
  if (typeof message !== 'string') return rebuilt(text);
  const type = awsErrorType(headers.get('x-amzn-errortype')) ?? awsErrorType(fields.__type);
  const error = { message, ...(type === null ? {} : { type, code: type }) };
  const shaped = new Headers(headers);
  // The length changed; the SDK reads the body as it comes.
  shaped.delete('content-length');
  return new Response(JSON.stringify({ error }), { status, statusText, headers: shaped });
}

/** `ExpiredTokenException:http://internal.amazon.com/...` or `com.amazon#Throttling` → the name. */
function awsErrorType(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const name = value.split(':')[0]?.split('#').pop() ?? '';
  return name === '' ? null : name;
}
