import { ReplyBodyTooLargeError } from './reply-body-limit';

/**
 * An AWS-shaped error answer (`{"message": ...}` or `{"Message": ...}`, the kind in the
 * `x-amzn-ErrorType` header) in the shape the openai SDK reads (`{"error": {"message", "type"}}`):
 * the SDK drops any other body, and with it the only words that tell a missing model access from
 * a missing IAM action. Success and OpenAI-shaped errors pass unchanged; so does one that is not
 * JSON. The body comes through providerFetch, which cuts an error reply off at
 * ERROR_REPLY_LIMIT_BYTES: one over it keeps its status, its message the limit's (as any
 * provider's oversized error reads in the SDK), never a lost connection.
 */
export async function awsErrorInOpenAiShape(response: Response): Promise<Response> {
  if (response.ok || response.body === null) return response;
  const { status, statusText, headers } = response;
  const shaped = new Headers(headers);
  // The length changed; the SDK reads the body as it comes.
  shaped.delete('content-length');
  const rebuilt = (body: string) => new Response(body, { status, statusText, headers: shaped });
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (!(error instanceof ReplyBodyTooLargeError)) throw error;
    return rebuilt(JSON.stringify({ error: { message: error.message } }));
  }
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
  return rebuilt(JSON.stringify({ error }));
}

/** `ExpiredTokenException:http://internal.amazon.com/...` or `com.amazon#Throttling` → the name. */
function awsErrorType(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const name = value.split(':')[0]?.split('#').pop() ?? '';
  return name === '' ? null : name;
}
