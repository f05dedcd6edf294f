/** `npm start`: the local API with an embedded DynamoDB. Ctrl-C stops it cleanly. */
import { apiRoutes } from '../../functions/http/contract/api-routes';
import { ConfigError } from '../../shared/adapters/config/service-config';
import { EmbeddedModelLoadError } from '../../shared/adapters/embedded-model/load-embedded-model';
import { LocalSettingsError } from './local-settings';
import { type LocalStack, startLocalStack } from './local-stack';
import { ModelCacheSettingsError, ModelFileError, ModelReferenceError } from './model-files';
import { PortInUseError } from './port-in-use-error';
import { DataDirInUseError } from './running-stack';
import { renderStartBanner } from './start-banner';

let stack: LocalStack;
try {
  stack = await startLocalStack(process.env, (line) => console.log(line));
} catch (error) {
  // A setting to change is one line naming it; anything else is a bug and keeps its stack.
  const oneLine =
    error instanceof PortInUseError ||
    error instanceof DataDirInUseError ||
    error instanceof LocalSettingsError ||
    error instanceof ConfigError ||
    error instanceof EmbeddedModelLoadError ||
    error instanceof ModelFileError ||
    error instanceof ModelReferenceError ||
    error instanceof ModelCacheSettingsError;
  if (!oneLine) throw error;
  console.error(`npm start: ${error.message}`);
  process.exit(1);
}
console.log(`\n${renderStartBanner(stack, apiRoutes)}\n`);

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
