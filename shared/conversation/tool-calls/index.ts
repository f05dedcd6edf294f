export { extractReply } from './extract-reply';
export type { ExtractedReply, ExtractedToolCall, ParsedArguments } from './extracted-reply';
export { JsonRepair } from './json-repair';
export { parseJsonLenient } from './parse-json-lenient';
export { stripThinkBlocks } from './strip-think-blocks';
