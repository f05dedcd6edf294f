import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SPEECH_MODELS,
  hubReference,
  PINNED_MODELS,
  PINNED_MOONSHINE,
  parseModelFolderReference,
  parseModelReference,
} from '../../../../infra/local/model-files';
import { pinOf } from '../../../../infra/local/model-files/pinned-models';
import { MOONSHINE_FILE_NAMES } from '../../../../shared/adapters/speech/recognizer-engines';

describe('PINNED_MODELS', () => {
  it.each(Object.entries(PINNED_MODELS))('pins %s by a SHA-256 and a size', (_role, model) => {
    expect(model.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Number.isSafeInteger(model.sizeBytes) && model.sizeBytes > 1_000_000).toBe(true);
  });

  it('names a GGUF for each language model and a whisper.cpp ggml file for each speech model', () => {
    expect(PINNED_MODELS.language.file).toMatch(/\.gguf$/);
    expect(PINNED_MODELS.languageSmall.file).toMatch(/\.gguf$/);
    expect(PINNED_MODELS.speech.file).toMatch(/^ggml-.*\.bin$/);
    expect(PINNED_MODELS.speechBase.file).toMatch(/^ggml-.*\.bin$/);
  });
});

describe('PINNED_MOONSHINE', () => {
  it('pins the five files sherpa-onnx loads for Moonshine, in one repository, each by a SHA-256 and a size', () => {
    expect(PINNED_MOONSHINE.map((file) => file.file)).toEqual(Object.values(MOONSHINE_FILE_NAMES));
    expect(new Set(PINNED_MOONSHINE.map((file) => file.repo)).size).toBe(1);
    for (const file of PINNED_MOONSHINE) {
      expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(Number.isSafeInteger(file.sizeBytes) && file.sizeBytes > 100_000).toBe(true);
    }
  });
});

describe('pinOf', () => {
  it.each([...Object.values(PINNED_MODELS), ...PINNED_MOONSHINE])(
    'gives $file its pin, so a setting naming it as a valid hf: reference carries the pin',
    (pinned) => {
      const named = { repo: pinned.repo, file: pinned.file };
      expect(pinOf(named)).toEqual(pinned);
      expect(parseModelReference(hubReference(named))).toEqual({ kind: 'hub', file: pinned });
    },
  );
});

describe('DEFAULT_SPEECH_MODELS', () => {
  it("names each engine's pinned default as STT_MODEL takes it", () => {
    expect(parseModelFolderReference(DEFAULT_SPEECH_MODELS.sherpa)).toEqual({
      kind: 'hub',
      repo: PINNED_MOONSHINE[0]?.repo,
      folder: '',
    });
    expect(parseModelReference(DEFAULT_SPEECH_MODELS.whisper)).toEqual({
      kind: 'hub',
      file: PINNED_MODELS.speech,
    });
  });
});
