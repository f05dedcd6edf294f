import { describe, expect, it } from 'vitest';
import { PINNED_MODELS, parseModelReference } from '../../../../infra/local/model-files';

describe('PINNED_MODELS', () => {
  it.each(Object.entries(PINNED_MODELS))(
    'pins %s by a SHA-256 and a size, as a valid hf: reference that carries the pin',
    (_role, model) => {
      expect(model.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(Number.isSafeInteger(model.sizeBytes) && model.sizeBytes > 1_000_000).toBe(true);
      expect(parseModelReference(`hf:${model.repo}/${model.file}`)).toEqual({
        kind: 'hub',
        file: model,
      });
    },
  );

  it('names a GGUF for each language model and a whisper.cpp ggml file for each speech model', () => {
    expect(PINNED_MODELS.language.file).toMatch(/\.gguf$/);
    expect(PINNED_MODELS.languageSmall.file).toMatch(/\.gguf$/);
    expect(PINNED_MODELS.speech.file).toMatch(/^ggml-.*\.bin$/);
    expect(PINNED_MODELS.speechBase.file).toMatch(/^ggml-.*\.bin$/);
  });
});
