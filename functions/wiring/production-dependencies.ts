import { resolveApiKey } from '../../shared/adapters/config/resolve-api-key';
import { readServiceConfig } from '../../shared/adapters/config/service-config';
import { randomIds, systemClock } from '../../shared/adapters/system/system-clock';
import { createServiceDependencies } from './create-service-dependencies';
import type { ServiceDependencies } from './service-dependencies';

/** The real dependencies of a Lambda container (or of `npm start`), read from the environment once. */
export async function productionDependencies(): Promise<ServiceDependencies> {
  const config = readServiceConfig(process.env);
  const llm = config.languageModel;
  const apiKey = llm === null ? null : await resolveApiKey(llm.apiKey, config.region);
  return createServiceDependencies({ config, apiKey, clock: systemClock, ids: randomIds });
}
