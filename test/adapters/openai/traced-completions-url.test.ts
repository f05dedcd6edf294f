import { describe, expect, it } from 'vitest';
import { tracedCompletionsUrl } from '../../../shared/adapters/openai/traced-completions-url';

describe('the model URL a trace shows', () => {
  it.each([
    ['http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['http://127.0.0.1:8080/v1/', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['https://api.openai.com', 'https://api.openai.com/chat/completions'],
    ['https://user:sk-in-url@proxy.example/v1', 'https://proxy.example/v1/chat/completions'],
    [
      'https://proxy.example/v1?api-key=sk-in-query#sk-in-hash',
      'https://proxy.example/v1/chat/completions',
    ],
    ['not a url sk-raw', '[unparsable base URL]'],
  ])('%s -> %s', (baseURL, expected) => {
    // Act
    const url = tracedCompletionsUrl(baseURL);

    // Assess
    expect(url).toBe(expected);
    expect(url).not.toMatch(/sk-/);
  });
});
