import { resolveApiKey } from '../../shared/adapters/config/resolve-api-key';
import { readServiceConfig } from '../../shared/adapters/config/service-config';
import { randomIds, systemClock } from '../../shared/adapters/system/system-clock';
import { createServiceDependencies } from './create-service-dependencies';
import type { ServiceDependencies } from './service-dependencies';

/**
 * The real dependencies of a Lambda container (or of `npm start`), read from the environment once.
 * A function that never calls the model neither fetches its key nor gets one.
 */
export async function productionDependencies(
  options: { readonly callsModel: boolean } = { callsModel: true },
): Promise<ServiceDependencies> {
  const config = readServiceConfig(process.env);
  const llm = options.callsModel ? config.languageModel : null;
  const apiKey = llm === null ? null : await resolveApiKey(llm.apiKey, config.region);
  const model = options.callsModel ? {} : { model: null };
  return createServiceDependencies({
    config,
    apiKey,
    clock: systemClock,
    ids: randomIds,
    ...model,
  });
}
