// One Lambda container of the attack bench: one function's deployed bundle (index.mjs, and the
// isolation worker's bundle beside it) in a process of its own, its routes served as `npm start`
// serves them. Its CPU is that function's alone, read by message; what it logs goes to /dev/null
// (written, as Lambda writes its logs). Usage: <function name> <bundle>.

import { pathToFileURL } from 'node:url';
import type { ProxyHandler } from '../functions/http/edge/dispatch-routes';
import type { StreamingHandler } from '../functions/http/edge/stream-responses';
import { installLambdaStreamingGlobals } from '../infra/local/lambda-response-streaming';
import { startLocalApiServer } from '../infra/local/local-api-server';

type Command = { readonly id: number; readonly kind: 'cpu' | 'close' };

const [functionName, bundle] = process.argv.slice(2);
installLambdaStreamingGlobals();
const { apiRoutes, binaryMediaTypes } = await import('../functions/http/contract/api-routes');
const module: { handler: ProxyHandler | StreamingHandler } = await import(
  pathToFileURL(bundle ?? '').href
);
const server = await startLocalApiServer({
  port: 0,
  routes: apiRoutes
    .filter((route) => route.function.name === functionName)
    .map((route) => ({
      method: route.method,
      path: route.path,
      functionName: route.function.name,
      handler: module.handler,
    })),
  binaryMediaTypes,
});
process.on('message', (command: Command) => {
  if (command.kind === 'cpu') {
    const used = process.cpuUsage();
    process.send?.({ id: command.id, micros: used.user + used.system });
    return;
  }
  void server.close().then(() => {
    process.send?.({ id: command.id });
    process.disconnect();
  });
});
process.send?.({ url: server.url });
