import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { esbuildBuildOptions } from '../../infra/stacks/function-bundling';
import { useScriptedAudioServer } from '../support/use-scripted-audio-server';
import { useScriptedLlmServer } from '../support/use-scripted-llm-server';
import { useCacheDirectories } from './cache-directory';
import { thrownBy } from './thrown-by';

/** The slice of the SDK client the test touches; the rest is reached with Reflect. */
interface ChatOnlyClient {
  readonly chat: {
    readonly completions: {
      create(
        body: Record<string, unknown>,
      ): Promise<{ choices: { message: { content: string } }[] }>;
    };
  };
}

/** Today the kept SDK is about 110 KB; the whole SDK was 385 KB. A jump means an upgrade grew it. */
const openAiShareLimitKb = 150;

const llm = useScriptedLlmServer();
const audio = useScriptedAudioServer();
const newDirectory = useCacheDirectories('jcc-openai-chat-only-');
let createClient: (baseURL: string) => ChatOnlyClient;
let toFile: (bytes: Uint8Array, name: string, options: { type: string }) => Promise<unknown>;
let metafile: Metafile;

beforeAll(async () => {
  const directory = newDirectory();
  const entry = join(directory, 'entry.mjs');
  writeFileSync(
    entry,
    "import OpenAI, { toFile } from 'openai';\n" +
      "export const createClient = (baseURL) => new OpenAI({ baseURL, apiKey: 'test-key', maxRetries: 0 });\n" +
      'export { toFile };\n',
  );
  const outfile = join(directory, 'out', 'index.mjs');
  const result = await build({ ...esbuildBuildOptions(entry, outfile), metafile: true });
  metafile = result.metafile;
  ({ createClient, toFile } = await import(pathToFileURL(outfile).href));
});

const resourceOf = (client: ChatOnlyClient, name: string): unknown => Reflect.get(client, name);

describe('the chat-only openai SDK, bundled with the deployed options', () => {
  it('sends a real chat completion through the SDK', async () => {
    // Prepare
    llm.enqueue({ reply: { content: 'hello from the scripted model' } });
    const client = createClient(llm.baseURL);

    // Act
    const completion = await client.chat.completions.create({
      model: 'scripted',
      messages: [{ role: 'user', content: 'hi' }],
    });

    // Assess
    expect(completion.choices[0]?.message.content).toBe('hello from the scripted model');
    expect(llm.requests).toHaveLength(1);
  });

  it('uploads a recording through audio.transcriptions and toFile', async () => {
    // Prepare
    audio.enqueueTranscription({ text: 'heard' });
    const client = Reflect.get(createClient(audio.baseURL), 'audio') as {
      transcriptions: { create(body: object): Promise<{ text: string }> };
    };
    const wav = new Uint8Array([82, 73, 70, 70, 1, 2, 3]);

    // Act
    const file = await toFile(wav, 'recording.wav', { type: 'audio/wav' });
    const reply = await client.transcriptions.create({ file, model: 'whisper-1' });

    // Assess
    expect(reply.text).toBe('heard');
    expect(audio.requests[0]?.transcription).toMatchObject({
      filename: 'recording.wav',
      file: wav,
    });
  });

  it('streams audio.speech as it arrives', async () => {
    // Prepare
    audio.enqueueSpeech({ audio: new Uint8Array(480).fill(1), chunks: 3 });
    const client = Reflect.get(createClient(audio.baseURL), 'audio') as {
      speech: { create(body: object): Promise<Response> };
    };

    // Act
    const response = await client.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'hi',
      response_format: 'pcm',
    });
    const bytes = new Uint8Array(await response.arrayBuffer());

    // Assess
    expect(bytes).toEqual(new Uint8Array(480).fill(1));
  });

  it.each([
    ['responses', 'create', 'Responses', 'resources/responses/responses.mjs'],
    ['beta', 'assistants', 'Beta', 'resources/beta/beta.mjs'],
    ['admin', 'organization', 'Admin', 'resources/admin/admin.mjs'],
    ['files', 'create', 'Files', 'resources/files.mjs'],
  ])(
    'makes client.%s.%s throw a clear error naming what is missing',
    (resource, member, exportName, sdkModule) => {
      // Prepare
      const stubbed = resourceOf(createClient(llm.baseURL), resource);

      // Act
      const error = thrownBy(() => Reflect.get(Object(stubbed), member));

      // Assess
      expect(error).toMatchObject({
        name: 'OpenAiNotInThisBuildError',
        message: expect.stringContaining(
          `openai: reading .${member} of ${exportName} (openai/${sdkModule}) is not in this build`,
        ),
      });
      expect(llm.requests).toEqual([]);
    },
  );

  it(`keeps the SDK's share of the bundle under ${openAiShareLimitKb} KB`, () => {
    // Prepare
    const [output] = Object.values(metafile.outputs).filter((candidate) => candidate.entryPoint);

    // Act
    const openAiBytes = Object.entries(output?.inputs ?? {})
      .filter(([path]) => path.includes('node_modules/openai/'))
      .reduce((total, [, input]) => total + input.bytesInOutput, 0);

    // Assess
    expect(openAiBytes).toBeGreaterThan(0);
    expect(openAiBytes / 1024).toBeLessThan(openAiShareLimitKb);
  });

  it('bundles no real resource but chat, the two audio endpoints and the index files', () => {
    // Prepare
    // Stubs show as `openai-chat-only-stub:<path>`; real modules as their path.
    const realResources = Object.keys(metafile.inputs)
      .filter((path) => !path.startsWith('openai-chat-only-stub:'))
      .map((path) => path.match(/node_modules\/openai\/(resources\/.*)$/)?.[1])
      .filter((path) => path !== undefined);

    // Act
    const kept = new Set([
      'resources/index.mjs',
      'resources/shared.mjs',
      'resources/audio/audio.mjs',
      'resources/audio/speech.mjs',
      'resources/audio/transcriptions.mjs',
    ]);
    const notChat = realResources.filter(
      (path) => !path.startsWith('resources/chat/') && !kept.has(path),
    );

    // Assess
    expect(realResources).toContain('resources/chat/completions/completions.mjs');
    expect(realResources).toContain('resources/audio/transcriptions.mjs');
    expect(notChat).toEqual([]);
  });
});
