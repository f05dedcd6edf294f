import { fileURLToPath } from 'node:url';
import { type ApiFunction, apiFunctions } from '../../functions/http/contract/api-routes';

export type { ApiFunction, FunctionNeeds } from '../../functions/http/contract/api-routes';
export { apiRoutes, binaryMediaTypes } from '../../functions/http/contract/api-routes';

/** The repository root, found from this file so synth and bench work from any working directory. */
export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Every Lambda function of the API, in the order of the route table. */
export const voiceFunctions: readonly ApiFunction[] = Object.values(apiFunctions);

/**
 * The logical id every function keeps in the template, whatever the construct tree becomes, so the
 * `sam local invoke <id>` commands in docs/deploy.md stay true.
 */
export function functionLogicalId(fn: ApiFunction): string {
  return `${fn.id}Function`;
}
