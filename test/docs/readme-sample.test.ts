import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../infra/stacks/voice-routes';

const SAMPLE = 'test/http/readme-sample.test.ts';

describe('the sample of test/README.md', () => {
  it(`is ${SAMPLE}, so npm test runs it and it cannot rot`, () => {
    // Prepare
    const readme = readFileSync(join(repositoryRoot, 'test/README.md'), 'utf8');

    // Act
    const sample = readme.match(/```ts\n([\s\S]*?)```/)?.[1];

    // Assess
    expect(sample).toBe(readFileSync(join(repositoryRoot, SAMPLE), 'utf8'));
  });
});
