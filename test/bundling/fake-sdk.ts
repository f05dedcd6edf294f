import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A tiny package shaped like the openai SDK, written under `root`: a client outside the API
 * surface folders that reaches kept and stubbed modules in every way the real SDK does (named,
 * namespace and default imports, `export *`, a CommonJS `require`). Each module's code carries a
 * marker, so a test can tell whether the real code reached the bundle.
 */
export const fakeSdkFiles: Readonly<Record<string, string>> = {
  // As the real SDK: a CommonJS package whose ES modules end in .mjs.
  'package.json': '{ "name": "fake-openai", "type": "commonjs" }\n',
  'client.mjs': `import { Admin } from './resources/admin/admin.mjs';
import * as API from './resources/index.mjs';
import parse, { helper } from './lib/helpers.mjs';
import legacy from './internal/legacy-user.js';
export class Client {
  constructor() {
    this.admin = new Admin(this);
    this.beta = new API.Beta(this);
    this.chat = new API.Chat(this);
  }
}
export const useParse = () => parse('x');
export const useHelper = () => helper('x');
export const useLegacy = () => legacy.make();
`,
  'resources/index.mjs': `export * from './chat/index.mjs';
export { Admin } from './admin/admin.mjs';
export { Beta } from './beta/beta.mjs';
`,
  'resources/chat/index.mjs': `export { Chat } from './chat.mjs';\n`,
  'resources/chat/chat.mjs': `export class Chat {
  constructor(client) { this.client = client; }
  create() { return 'CHAT-REAL-CODE'; }
}
`,
  'resources/admin/admin.mjs': `export class Admin {
  constructor(client) { this.client = client; }
  list() { return 'ADMIN-REAL-CODE'; }
}
`,
  'resources/beta/beta.mjs': `export class Beta { list() { return 'BETA-REAL-CODE'; } }\n`,
  'lib/helpers.mjs': `export * from './inner.mjs';
export default function parse() { return 'PARSE-REAL-CODE'; }
`,
  'lib/inner.mjs': `export function helper() { return 'HELPER-REAL-CODE'; }
export default function hiddenByExportStar() { return 'HIDDEN'; }
`,
  'lib/legacy.mjs': `export class Legacy { run() { return 'LEGACY-REAL-CODE'; } }\n`,
  'internal/legacy-user.js': `const { Legacy } = require('../lib/legacy.mjs');
module.exports = { make: () => new Legacy() };
`,
};

/** Writes the fake SDK under `root` (the package directory) and returns `root`. */
export function writeFakeSdk(root: string): string {
  for (const [path, contents] of Object.entries(fakeSdkFiles)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, contents);
  }
  return root;
}
