import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The project's own TypeScript: what tsconfig.json includes, less what it excludes. */
function projectFiles(): string[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config;
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
  return parsed.fileNames.filter((file) => file.endsWith('.ts')).map((file) => resolve(file));
}

/** The file a relative specifier names (`./x` is `./x.ts` or `./x/index.ts`); null for a package. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/**
 * Every file's imports, type-only ones and `export ... from` included (a type import is still a
 * dependency a reader follows), dynamic `import()` too.
 */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.flatMap((imported) => {
      const target = resolveImport(file, imported.fileName);
      return target?.endsWith('.ts') ? [target] : [];
    });
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components with more than one file, or a file importing itself (Tarjan). */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    lowLink.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, lowLink.get(target) ?? 0));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) {
      cycles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe('imports', () => {
  it('form no cycle among the repository’s own files', () => {
    // Prepare
    const files = projectFiles();
    expect(files.length).toBeGreaterThan(500);

    // Act
    const cycles = importCycles(importGraph(files));

    // Assess: each cycle by its files; break one by moving what both sides share down a level.
    expect(cycles.map((cycle) => cycle.map((file) => relative(root, file)))).toEqual([]);
  });

  it.each([
    ['two files importing each other', { a: ['b'], b: ['a'] }, [['a', 'b']]],
    ['a loop through three files', { a: ['b'], b: ['c'], c: ['a'], d: ['a'] }, [['a', 'b', 'c']]],
    ['a file importing itself', { a: ['a'] }, [['a']]],
    ['a diamond, which is no loop', { a: ['b', 'c'], b: ['d'], c: ['d'], d: [] }, []],
  ])('the walk finds %s', (_, edges: Record<string, string[]>, expected) => {
    expect(importCycles(new Map(Object.entries(edges)))).toEqual(expected);
  });
});
