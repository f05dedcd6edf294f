/** `npm run openapi`: writes docs/openapi.json from the schemas the handlers validate with. */
import { writeFile } from 'node:fs/promises';
import { buildOpenApiDocument } from '../../functions/http/openapi-document';

export const OPENAPI_PATH = 'docs/openapi.json';
export const renderOpenApi = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  await writeFile(OPENAPI_PATH, renderOpenApi());
  console.log(`wrote ${OPENAPI_PATH}`);
}
