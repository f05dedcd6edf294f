/** `npm start`: the local API with an embedded DynamoDB. Ctrl-C stops it cleanly. */
import { apiRoutes } from '../../functions/http/api-routes';
import { startLocalStack } from './local-stack';

const stack = await startLocalStack(process.env, (line) => console.log(line));
const node = stack.nodes[0];
const key = node === undefined ? '<node_id>:<node_key>' : `${node.nodeId}:${node.key}`;

console.log(`
JCC local API listening on ${stack.url}
  DynamoDB (dynalite)  ${stack.dynamoDbEndpoint}  table ${stack.tableName}
  health               GET  ${stack.url}/health
  OpenAPI              GET  ${stack.url}/openapi.json
  routes               ${apiRoutes
    .map((route) => `${route.method.padEnd(4)} ${stack.url}${route.path}`)
    .join('\n                       ')}
  nodes                ${stack.nodes.map((entry) => entry.nodeId).join(', ')}`);
if (node?.generated) {
  console.log(`\nGenerated a node key (set LOCAL_NODE_API_KEY to keep one across restarts):
  X-API-Key: ${key}`);
}
if (!stack.languageModelConfigured) {
  console.log(`\nNo language model configured: the voice routes answer 503 until you set
  OPENAI_BASE_URL, OPENAI_API_KEY and LLM_MODEL (any OpenAI-compatible server), e.g.
  OPENAI_BASE_URL=http://localhost:11434/v1 LLM_MODEL=qwen2.5:7b npm start`);
}
console.log(`\nTry it:
  curl -s ${stack.url}/api/v0/conversation/start -H 'Content-Type: application/json' \\
    -H 'X-API-Key: ${key}' -d @test/fixtures/voice-node-conversation-start.json
  npm run say -- "what's the weather tomorrow"   (uses LOCAL_NODE_API_KEY and PORT)
`);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping`);
  stack.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
