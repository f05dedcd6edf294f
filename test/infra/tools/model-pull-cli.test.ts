import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from '../../support/run-tool';
import { ggufBytes, startScriptedHubServer } from '../../support/scripted-hub-server';
import { useLoopbackServer } from '../../support/use-loopback-server';

const hub = useLoopbackServer('scripted hub', startScriptedHubServer);

let cacheDir: string;
beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'model-pull-'));
});
afterEach(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

/** `npm run model:pull -- ...args` as a user runs it, with only the settings given here. */
async function modelPull(env: Record<string, string>, ...args: string[]) {
  const {
    LLM_MODEL: _llm,
    STT_MODEL: _stt,
    OPENAI_BASE_URL: _openai,
    STT_BASE_URL: _stt_base,
    STT_ENGINE: _stt_engine,
    ...inherited
  } = process.env;
  return runTool('infra/tools/model-pull.ts', args, {
    ...inherited,
    MODEL_CACHE_DIR: cacheDir,
    HF_ENDPOINT: hub.endpoint,
    ...env,
  });
}

/** A whisper.cpp ggml file's magic (0x67676d6c, little-endian), then filler. */
function ggmlBytes(size: number): Buffer {
  const body = Buffer.alloc(size, 3);
  body.writeUInt32LE(0x67676d6c, 0);
  return body;
}

describe('npm run model:pull', () => {
  it('fetches the models LLM_MODEL and STT_MODEL name into MODEL_CACHE_DIR, announcing each with its size', async () => {
    // Prepare
    const language = ggufBytes(120_000);
    const speech = ggmlBytes(40_000);
    hub.serve('acme/tiny-GGUF', 'tiny.gguf', { body: language });
    hub.serve('acme/whisper', 'models/ggml-tiny.bin', { body: speech });

    // Act
    const result = await modelPull({
      LLM_MODEL: 'hf:acme/tiny-GGUF/tiny.gguf',
      STT_ENGINE: 'whisper',
      STT_MODEL: 'hf:acme/whisper/models/ggml-tiny.bin',
    });

    // Assess
    const languagePath = join(cacheDir, 'acme', 'tiny-GGUF', 'tiny.gguf');
    const speechPath = join(cacheDir, 'acme', 'whisper', 'models', 'ggml-tiny.bin');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`language model: ${languagePath}\nspeech model: ${speechPath}\n`);
    expect(result.stderr).toContain(
      `downloading tiny.gguf, 120 kB, once, into ${join(cacheDir, 'acme', 'tiny-GGUF')} (from ${hub.endpoint}/acme/tiny-GGUF/resolve/main/tiny.gguf)`,
    );
    expect(result.stderr).toContain('ggml-tiny.bin: 40.0 kB downloaded and checked (SHA-256)');
    expect(await readFile(languagePath)).toEqual(language);
    expect(await readFile(speechPath)).toEqual(speech);
  });

  it('fetches the five files of the Moonshine folder STT_MODEL names for sherpa-onnx (the default engine)', async () => {
    // Prepare: ONNX files open with ModelProto's first key (0x08); the tokens are text.
    const onnx = (size: number) => Buffer.concat([Buffer.from([0x08, 0x08]), Buffer.alloc(size)]);
    const files = [
      ['preprocess.onnx', onnx(3_000)],
      ['encode.int8.onnx', onnx(4_000)],
      ['uncached_decode.int8.onnx', onnx(5_000)],
      ['cached_decode.int8.onnx', onnx(6_000)],
      ['tokens.txt', Buffer.from('<unk> 0\n<s> 1\n</s> 2\n')],
    ] as const;
    for (const [name, body] of files) hub.serve('acme/moonshine', `int8/${name}`, { body });

    // Act
    const result = await modelPull({
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      STT_MODEL: 'hf:acme/moonshine/int8',
    });

    // Assess
    const folder = join(cacheDir, 'acme', 'moonshine', 'int8');
    expect(result.stderr).toContain('encode.int8.onnx: 4.0 kB downloaded and checked (SHA-256)');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`speech model: ${folder}\n`);
    for (const [name, body] of files) expect(await readFile(join(folder, name))).toEqual(body);
  });

  it('fetches nothing for a model served by a server or set to none', async () => {
    // Act
    const result = await modelPull({
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      STT_MODEL: 'none',
    });

    // Assess
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'language model: OPENAI_BASE_URL is set, npm start uses that server; nothing to fetch\nspeech model: none (STT_MODEL=none)\n',
    );
    expect(hub.requests).toEqual([]);
  });

  it('says in one line, without a stack trace, what to do when the hub has no such file', async () => {
    // Act
    const result = await modelPull({
      LLM_MODEL: 'hf:acme/tiny-GGUF/absent.gguf',
      STT_MODEL: 'none',
    });

    // Assess
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `model:pull: ${hub.endpoint}/acme/tiny-GGUF/resolve/main/absent.gguf answered 404: the hub has no file hf:acme/tiny-GGUF/absent.gguf; check the repository and the file's path in it (the hub's "Files" tab shows both)\n`,
    );
  });

  it('prints its usage for --help, and with it an unknown option, never a stack trace', async () => {
    // Act
    const help = await modelPull({}, '--help');
    const unknown = await modelPull({}, '--everything');

    // Assess
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run model:pull/);
    expect(help.stdout).toContain('default hf:unsloth/Qwen3-1.7B-GGUF/Qwen3-1.7B-Q4_K_M.gguf');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown option '--everything'\n\nUsage: npm run model:pull/);
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
    expect(hub.requests).toEqual([]);
  });
});
