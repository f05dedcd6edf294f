/**
 * The whole service on one machine, as `npm start` runs it:
 * 0. PORT and DYNAMODB_PORT checked free, DATA_DIR claimed; the language and speech model files
 *    fetched side by side (first start), the language model loaded and warmed, the recognizer's
 *    process started (infra/local/local-model.ts, local-speech.ts);
 * 1. embedded DynamoDB (dynalite) on DYNAMODB_PORT, files under DATA_DIR, and the table;
 * 2. the nodes of LOCAL_NODE_API_KEY registered (one generated when unset);
 * 3. the environment the handlers read pointed at that database, speech out on (the embedded
 *    synthesizer unless TTS_PROVIDER says otherwise), the embedded language model when no
 *    OPENAI_BASE_URL names a model server (LLM_MODEL);
 * 4. every route of the route table served on PORT through the handler exports Lambda runs.
 * The handlers wire themselves from process.env on first use, so run one stack per process.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readSettings } from '../../shared/adapters/config/read-settings';
import { readServiceConfig } from '../../shared/adapters/config/service-config';
import { tracedCompletionsUrl } from '../../shared/adapters/openai/traced-completions-url';
import { ANSWER_MARGIN_MS } from '../stacks/answer-margin';
import { startEmbeddedDynamoDb } from './embedded-dynamodb';
import { headerAuthenticator, type SharedHeaderAuthenticator } from './header-authenticator';
import { type LocalApiServer, startLocalApiServer } from './local-api-server';
import {
  type LocalModel,
  resolveLocalModelFile,
  startEmbeddedModel,
  takeEmbeddedModelReference,
} from './local-model';
import { localModelTiming } from './local-model-timing';
import { type LocalSettings, readLocalSettings } from './local-settings';
import {
  defaultLocalSpeechOut,
  describeLocalSpeech,
  type LocalRecognizer,
  type LocalSpeech,
  provideLocalRecognizer,
  provideLocalSynthesizer,
} from './local-speech';
import { assertPortFree, rethrowPortInUse } from './port-in-use-error';
import { registeredNodeIds } from './registered-nodes';
import { loadOpenApi, loadRoutes } from './route-handlers';
import { claimDataDir, type DataDirClaim } from './running-stack';
import { LOCAL_REGION, type LocalNode, seedLocalNodes } from './seed-local-nodes';

export interface LocalStack {
  readonly url: string;
  readonly settings: LocalSettings;
  readonly dynamoDbEndpoint: string;
  readonly tableName: string;
  readonly nodes: readonly LocalNode[];
  readonly languageModelConfigured: boolean;
  readonly speech: LocalSpeech;
  /** The turn's deadline and warm-up timeout, and which of them npm start chose for a local model. */
  readonly timing?: LocalTurnTiming;
  /** Every node in the table, those `npm run node:add` registered included. */
  readonly registeredNodeIds?: readonly string[];
  /** The model the voice routes call and where (no credential of the URL), when configured. */
  readonly languageModel?: { readonly model: string; readonly url: string } | null;
  /** The model npm start runs in its own process when no model server is configured. */
  readonly embeddedModel?: LocalModel | null;
  close(): Promise<void>;
}

export interface LocalTurnTiming {
  readonly turnDeadlineMs: number;
  readonly warmUpTimeoutMs: number;
  /** TURN_DEADLINE_MS and/or WARMUP_TIMEOUT_MS when npm start set them for a local model. */
  readonly setForLocalModel: readonly string[];
}

export async function startLocalStack(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = () => undefined,
): Promise<LocalStack> {
  const settings = readLocalSettings(env);
  defaultLocalSpeechOut(env);
  const embeddedReference = takeEmbeddedModelReference(env);
  const embedded = embeddedReference !== null && embeddedReference.kind !== 'none';
  // A CPU model on this machine or the network needs longer than a hosted one (issue 21).
  const forLocalModel = localModelTiming(env, embedded).variables;
  Object.assign(env, forLocalModel);
  // Every setting the handlers read, checked before anything starts: a bad one stops npm start
  // with one line instead of a 500 on every request.
  const service = readServiceConfig({ ...env, TABLE_NAME: settings.tableName });
  // Both ports before the slow steps: a taken one is said now, not after a model's download.
  await assertPortFree('PORT', settings.host, settings.port, [settings.dynamoDbPort]);
  await assertPortFree('DYNAMODB_PORT', settings.dynamoDbHost, settings.dynamoDbPort, [
    settings.port,
  ]);
  let claim: DataDirClaim | null = null;
  if (settings.dataDir !== null) {
    await mkdir(settings.dataDir, { recursive: true });
    claim = await claimDataDir(settings.dataDir);
  }
  let localModel: LocalModel | null = null;
  let hearing: LocalRecognizer;
  try {
    // The two downloads (on a first start) side by side; the recognizer loads in its own process.
    const [modelFile, recognizer] = await settledBoth(
      embeddedReference === null ? null : resolveLocalModelFile(embeddedReference, env),
      provideLocalRecognizer(env, log),
      (started) => started.close(),
    );
    hearing = recognizer;
    try {
      if (modelFile !== null) {
        localModel = await startEmbeddedModel(modelFile, settings.embeddedModel, env);
      }
    } catch (error) {
      recognizer.close();
      throw error;
    }
  } catch (error) {
    await claim?.release();
    throw error;
  }
  const database = await startEmbeddedDynamoDb({
    port: settings.dynamoDbPort,
    host: settings.dynamoDbHost,
    ...(settings.dataDir === null ? {} : { path: join(settings.dataDir, 'dynamodb') }),
  }).catch(async (error: unknown) => {
    hearing.close();
    await localModel?.close();
    await claim?.release();
    return rethrowPortInUse('DYNAMODB_PORT', settings.dynamoDbHost, settings.dynamoDbPort, [
      settings.port,
    ])(error);
  });
  let api: LocalApiServer | null = null;
  let authenticate: SharedHeaderAuthenticator | null = null;
  try {
    Object.assign(env, {
      DYNAMODB_ENDPOINT: database.endpoint,
      TABLE_NAME: settings.tableName,
      AWS_REGION: readSettings(env).values.AWS_REGION ?? LOCAL_REGION,
    });
    const nodes = await seedLocalNodes(database.endpoint, settings);
    provideLocalSynthesizer();
    const { binaryMediaTypes } = await import('../../functions/http/contract/api-routes');
    // The key checked from the headers, before a body is read (the table is reachable now), by
    // the authenticator the handlers then share: made before they are loaded.
    authenticate = headerAuthenticator(readServiceConfig(env));
    api = await startLocalApiServer({
      port: settings.port,
      host: settings.host,
      routes: await loadRoutes(),
      binaryMediaTypes,
      documents: { '/openapi.json': await loadOpenApi() },
      // As the stack sets the Lambda timeout: the turn deadline and 3 s to answer.
      functionTimeoutMs: service.engine.turnDeadlineMs + ANSWER_MARGIN_MS,
      authenticate,
      log,
    }).catch(rethrowPortInUse('PORT', settings.host, settings.port, [database.port]));
    const server = api;
    await claim?.describe({ dynamoDbEndpoint: database.endpoint, tableName: settings.tableName });
    return {
      url: server.url,
      settings,
      dynamoDbEndpoint: database.endpoint,
      tableName: settings.tableName,
      nodes,
      languageModelConfigured: service.languageModel !== null || localModel !== null,
      speech: describeLocalSpeech(service, hearing),
      timing: {
        turnDeadlineMs: service.engine.turnDeadlineMs,
        warmUpTimeoutMs: service.engine.warmUpTimeoutMs,
        setForLocalModel: Object.keys(forLocalModel),
      },
      registeredNodeIds: await registeredNodeIds(database.endpoint, settings.tableName),
      languageModel:
        service.languageModel === null
          ? null
          : {
              model: service.languageModel.model,
              url: tracedCompletionsUrl(service.languageModel.baseURL),
            },
      embeddedModel: localModel,
      close: async () => {
        hearing.close();
        await server.close();
        authenticate?.close();
        await localModel?.close();
        await database.close();
        await claim?.release();
      },
    };
  } catch (error) {
    // A recognizer process started before the failure is not left running.
    hearing.close();
    await api?.close();
    authenticate?.close();
    await localModel?.close();
    await database.close();
    await claim?.release();
    throw error;
  }
}

/**
 * Runs two start-up steps side by side and waits for both: a failure of either is thrown once
 * the other has settled, and what the other started is undone (`undoSecond`), so nothing is left
 * running behind a failed start.
 */
async function settledBoth<First, Second>(
  first: Promise<First> | First,
  second: Promise<Second>,
  undoSecond: (started: Second) => void,
): Promise<[First, Second]> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'rejected') {
    if (b.status === 'fulfilled') undoSecond(b.value);
    throw a.reason;
  }
  if (b.status === 'rejected') throw b.reason;
  return [a.value, b.value];
}
