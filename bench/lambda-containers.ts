import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type ApiFunction, apiRoutes } from '../functions/http/contract/api-routes';
import { bundleHandler } from '../infra/bundling/bundle-handler';
import { readLocalSettings } from '../infra/local/local-settings';
import { seedLocalNodes } from '../infra/local/seed-local-nodes';
import { defaultDeploySettings } from '../infra/stacks/deploy-settings';
import { functionEnvironment } from '../infra/stacks/function-environment';
import { functionMemoryMb } from '../infra/stacks/voice-function';
import { repositoryRoot } from '../infra/stacks/voice-routes';
import { type ChildRpc, forkChildRpc } from './child-rpc';

/** The functions of the API as Lambda runs them: one container process each, one DynamoDB. */
export interface LambdaContainers {
  /** The URL a request to `path` goes to: the container of the function that serves it. */
  url(path: string): string;
  /** `/health` of the container that serves `path`. */
  healthUrl(path: string): string;
  /** CPU the container serving `path` has used since it started, every thread of it: µs. */
  cpuMicros(path: string): Promise<number>;
  close(): Promise<void>;
}

// Literal `new URL(...)` paths, so the dead-code check sees the children as used.
const DYNALITE_CHILD = fileURLToPath(new URL('./dynalite-child.ts', import.meta.url));
const CONTAINER_CHILD = fileURLToPath(new URL('./lambda-container-child.ts', import.meta.url));
// Under node_modules so the external `@aws-sdk/*` imports resolve, as the runtime's SDK does.
const bundles = join(repositoryRoot, 'node_modules', '.cache', 'jcc-attack');

/**
 * Bundles each of `functions` as the stack deploys it and starts it in a process of its own (a
 * warm container), all on one dynalite in another process with the nodes of LOCAL_NODE_API_KEY
 * registered. `env` is every container's environment (the settings a deployed function reads).
 */
export async function startLambdaContainers(
  env: NodeJS.ProcessEnv,
  functions: readonly ApiFunction[],
): Promise<LambdaContainers> {
  const database = await forkChildRpc<{ endpoint: string }>(DYNALITE_CHILD);
  const containers = new Map<string, ChildRpc<{ url: string }>>();
  try {
    const settings = readLocalSettings(env);
    await seedLocalNodes(database.ready.endpoint, settings);
    await startContainers(env, settings.tableName, database.ready.endpoint, functions, containers);
  } catch (error) {
    // Nothing started may outlive a failed start: the bench would hang on their open channels.
    for (const child of [database, ...containers.values()]) child.process.kill();
    throw error;
  }
  const containerOf = (path: string) => {
    const name = apiRoutes.find((route) => route.path === path)?.function.name;
    const container = name === undefined ? undefined : containers.get(name);
    if (container === undefined) throw new Error(`no container serves ${path}`);
    return container;
  };
  return {
    url: (path) => `${containerOf(path).ready.url}${path}`,
    healthUrl: (path) => `${containerOf(path).ready.url}/health`,
    cpuMicros: (path) =>
      containerOf(path)
        .call<{ micros: number }>('cpu')
        .then((answer) => answer.micros),
    close: async () => {
      for (const container of containers.values()) await container.call('close');
      await database.call('close');
    },
  };
}

/** Bundles each function and starts its container, adding each to `containers` once it runs. */
async function startContainers(
  env: NodeJS.ProcessEnv,
  tableName: string,
  endpoint: string,
  functions: readonly ApiFunction[],
  containers: Map<string, ChildRpc<{ url: string }>>,
): Promise<void> {
  const containerEnv = {
    ...env,
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_NAME: tableName,
    AWS_REGION: 'us-east-1',
    // As deployed: stack traces through the bundle's source map.
    NODE_OPTIONS: functionEnvironment({
      tableName,
      settings: defaultDeploySettings,
      needs: { callsModel: true, hears: false, speaks: false },
    }).NODE_OPTIONS,
  };
  // The container's own code bundled too, run by Node alone: no tsx loads the function's bundle
  // (tsx would transform it and keep a copy with an inline source map, 6 MB of heap).
  const container = join(bundles, 'lambda-container.mjs');
  await build({
    entryPoints: [CONTAINER_CHILD],
    outfile: container,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    logLevel: 'warning',
  });
  for (const fn of functions) {
    const directory = join(bundles, fn.name);
    await bundleHandler(join(repositoryRoot, fn.entry), directory);
    containers.set(
      fn.name,
      await forkChildRpc(container, {
        args: [fn.name, join(directory, 'index.mjs')],
        env: containerEnv,
        quiet: true,
        plain: { nodeFlags: lambdaHeapFlags(functionMemoryMb) },
      }),
    );
  }
}

/**
 * The heap the Lambda Node.js runtime gives a function of `memoryMb` when its NODE_OPTIONS set
 * none: the runtime's bootstrap makes the young generation a tenth of the memory, in three
 * semi-spaces, and the old generation the rest. Without them a container runs on V8's defaults,
 * whose young generation is a fraction of that: it would collect far more often than a deployed
 * function and charge hostile requests for it.
 */
function lambdaHeapFlags(memoryMb: number): string[] {
  const newSpaceMb = Math.floor(memoryMb / 10);
  return [
    `--max-semi-space-size=${Math.floor(newSpaceMb / 3)}`,
    `--max-old-space-size=${memoryMb - newSpaceMb}`,
  ];
}
