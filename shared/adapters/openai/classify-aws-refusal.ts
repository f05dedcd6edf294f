import { LanguageModelFailure } from '../../ports/language-model';

/** An AWS refusal of the model call, and what the operator must do about it. */
export interface AwsRefusal {
  readonly failure:
    | typeof LanguageModelFailure.credentialsRejected
    | typeof LanguageModelFailure.permissionDenied
    | typeof LanguageModelFailure.modelAccessDenied;
  /** One sentence for the log line: where to fix it (never a key nor a signature). */
  readonly fix: string;
}

/**
 * The error types AWS answers when the signature's credentials are missing, wrong or expired
 * (Transcribe's refusals read them too: transcribe-failure.ts).
 */
export const AWS_CREDENTIAL_ERRORS: ReadonlySet<string> = new Set([
  'ExpiredToken',
  'ExpiredTokenException',
  'UnrecognizedClientException',
  'InvalidClientTokenId',
  'InvalidSignatureException',
  'IncompleteSignatureException',
  'MissingAuthenticationTokenException',
  'SignatureDoesNotMatch',
]);

/** AWS's own sentences for those, when the type is not given. */
const CREDENTIAL_WORDS =
  /security token included in the request is (expired|invalid)|signature we calculated does not match/i;
const IAM_WORDS = /not authorized to perform/i;
const MODEL_WORDS = /model|not enabled for this account/i;

/**
 * What a 401, 403 or 404 of Bedrock's OpenAI-compatible endpoint means, from its error type and
 * words (aws-error-body.ts puts both where the SDK keeps them): the credentials, the role's IAM
 * policy, or the account's access to the model. Null for any other answer (a 400 of a bad
 * request, a 429 throttle, a 5xx): the generic rules of classify-failure.ts judge those.
 */
export function classifyAwsRefusal(
  status: number,
  type: string | null,
  text: string,
  region: string,
): AwsRefusal | null {
  if (status !== 401 && status !== 403 && status !== 404) return null;
  const credentials = type === null ? CREDENTIAL_WORDS.test(text) : AWS_CREDENTIAL_ERRORS.has(type);
  if (credentials) {
    return {
      failure: LanguageModelFailure.credentialsRejected,
      fix:
        'AWS refused the credentials the request was signed with (missing, expired or invalid): ' +
        "in Lambda, check the function's role; locally, refresh them (aws sso login, AWS_PROFILE)",
    };
  }
  if (IAM_WORDS.test(text) || (status === 403 && !MODEL_WORDS.test(text))) {
    return {
      failure: LanguageModelFailure.permissionDenied,
      fix: "the role may not call the model: allow the IAM action bedrock-mantle:CreateInference on the function's role (the stack grants it: docs/deploy.md)",
    };
  }
  if (MODEL_WORDS.test(text) || status === 404) {
    return {
      failure: LanguageModelFailure.modelAccessDenied,
      fix: `the account has no access to this model in ${region}: request it in the Bedrock console (Model access) of ${region}, or choose a model served there (LLM_MODEL, bedrockModel)`,
    };
  }
  return null;
}
