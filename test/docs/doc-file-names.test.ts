import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../infra/stacks/voice-routes';

const SKIP = new Set(['node_modules', 'cdk.out', '.git', '.data', 'coverage']);

/** Every .ts file of the repository, as a path from its root. */
function sourceFiles(folder = ''): string[] {
  return readdirSync(join(repositoryRoot, folder), { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The pages that describe the code as it is (the decision notes are a record of their day). The
 * README joins them once it names the role folders of functions/http.
 */
function pages(): readonly string[] {
  const docs = readdirSync(join(repositoryRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', 'test/README.md', ...docs].filter((page) =>
    existsSync(join(repositoryRoot, page)),
  );
}

/** The source files a page names in code spans: `functions/http/edge/create-route.ts`, `step.ts`. */
function namedFiles(markdown: string): readonly string[] {
  return [...markdown.matchAll(/`([\w./-]+\.ts)`/g)].map((match) => match[1] ?? '');
}

describe('source files the docs name', () => {
  const files = sourceFiles();

  it.each(pages())(
    '%s: every file named in a code span exists (a full path or its tail)',
    (page) => {
      // Prepare: a moved or folded file leaves its old name in the docs unless this fails.
      const markdown = readFileSync(join(repositoryRoot, page), 'utf8');

      // Act
      const missing = namedFiles(markdown).filter(
        (name) => !files.some((file) => file === name || file.endsWith(`/${name}`)),
      );

      // Assess
      expect(missing, `${relative(repositoryRoot, join(repositoryRoot, page))}`).toEqual([]);
    },
  );
});
