import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../infra/stacks/voice-routes';

/** The pages a reader follows links through: the README, docs/ and its decisions, test/README.md. */
function pages(): readonly string[] {
  const inFolder = (folder: string) =>
    readdirSync(join(repositoryRoot, folder))
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(folder, name));
  return ['README.md', 'test/README.md', ...inFolder('docs'), ...inFolder('docs/decisions')];
}

/** Inline markdown links `[text](target)`, outside code spans and fences. */
function linksOf(markdown: string): readonly string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(markdown: string): ReadonlySet<string> {
  const headings = markdown.replace(/```[\s\S]*?```/g, '').match(/^#{1,6} .*$/gm) ?? [];
  return new Set(
    headings.map((heading) =>
      heading
        .replace(/^#+ /, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replaceAll(' ', '-'),
    ),
  );
}

/** What is wrong with one relative link of `page`; null when it resolves. */
function brokenLink(page: string, target: string): string | null {
  const [path = '', anchor] = target.split('#');
  const file =
    path === '' ? page : relative(repositoryRoot, join(repositoryRoot, dirname(page), path));
  // A clone has nothing beside it (../shared is this workplace's, not the reader's).
  if (file.startsWith('..')) return `${target}: outside the repository`;
  if (!existsSync(join(repositoryRoot, file))) return `${target}: no ${file}`;
  if (anchor === undefined || !file.endsWith('.md')) return null;
  const anchors = anchorsOf(readFileSync(join(repositoryRoot, file), 'utf8'));
  return anchors.has(anchor) ? null : `${target}: no heading #${anchor} in ${file}`;
}

describe('relative links in the docs', () => {
  it.each(pages().filter((page) => existsSync(join(repositoryRoot, page))))(
    '%s: every relative link resolves to a file (and heading) of the repository',
    (page) => {
      // Prepare
      const markdown = readFileSync(join(repositoryRoot, page), 'utf8');
      const relativeLinks = linksOf(markdown).filter((target) => !/^[a-z]+:/i.test(target));

      // Act
      const broken = relativeLinks.flatMap((target) => brokenLink(page, target) ?? []);

      // Assess
      expect(broken).toEqual([]);
    },
  );
});
