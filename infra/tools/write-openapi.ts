/** `npm run openapi`: writes docs/openapi.json from the schemas the handlers validate with. */
import { writeFile } from 'node:fs/promises';
import { buildOpenApiDocument } from '../../functions/http/openapi/openapi-document';
import { parseToolArguments } from './tool-arguments';

export const OPENAPI_PATH = 'docs/openapi.json';
export const renderOpenApi = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

const USAGE = `usage: npm run openapi

Writes ${OPENAPI_PATH} from the schemas the handlers validate with. No options.`;

if (import.meta.url === `file://${process.argv[1]}`) {
  parseToolArguments({ name: 'openapi', usage: USAGE }, { options: {} });
  await writeFile(OPENAPI_PATH, renderOpenApi());
  console.log(`wrote ${OPENAPI_PATH}`);
}
