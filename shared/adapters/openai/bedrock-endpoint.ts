/**
 * Amazon Bedrock's OpenAI-compatible endpoint (Mantle): its SigV4 service name and regional root.
 * No AWS SDK here: the settings read it too.
 */

/** The SigV4 service name of the Mantle endpoint (and the prefix of its IAM actions). */
export const BEDROCK_MANTLE_SERVICE = 'bedrock-mantle';

/**
 * The regional Mantle root that serves Chat Completions for most models (gpt-oss among them);
 * a model served under `/openai/v1` is reached with BEDROCK_BASE_URL (docs/deploy.md).
 */
export const bedrockMantleBaseUrl = (region: string): string =>
  `https://bedrock-mantle.${region}.api.aws/v1`;
