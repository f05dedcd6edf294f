import type { AttemptFailure } from './classify-failure';
import {
  type ModelServer,
  type ModelThinking,
  serverFamily,
  type ThinkingFields,
  thinkingOffFields,
} from './thinking-fields';

/** What the adapter is told about thinking: MODEL_THINKING and MODEL_SERVER. */
export interface ThinkingSettings {
  readonly thinking: ModelThinking;
  readonly server: ModelServer;
}

/** Where the adapter says, once, that a server refused the thinking field. */
export type ThinkingWarning = (message: string, details: Record<string, unknown>) => void;

/** A refusal of the request itself, as the SDK words it (`400 ...`); vLLM's validation may say 422. */
const REFUSAL = /^(400|422)\b/;

/**
 * The thinking fields of one adapter instance (one container): what to send, until a server
 * refuses them. A server that answers 400 naming a field we sent never gets it again from this
 * instance, and that is logged once: a server that cannot take the field cannot think less either,
 * and asking every turn twice would double its cost.
 */
export class ThinkingControl {
  #fields: ThinkingFields;
  readonly #warn: ThinkingWarning;

  constructor(
    settings: ThinkingSettings,
    target: { baseURL: string; model: string; bedrock: boolean },
    warn: ThinkingWarning,
  ) {
    this.#fields =
      settings.thinking === 'on'
        ? {}
        : thinkingOffFields(
            serverFamily(settings.server, target.baseURL, target.bedrock),
            target.model,
          );
    this.#warn = warn;
  }

  /** The fields to send now (`{}` once refused, or when thinking is left to the server). */
  get fields(): ThinkingFields {
    return this.#fields;
  }

  /**
   * Whether `failed` is the server refusing a field of `sent`. If so the fields are dropped for
   * good (the caller asks again without them) and a warning is logged, the first time only.
   */
  refusedBy(failed: AttemptFailure, sent: ThinkingFields): boolean {
    const names = Object.keys(sent);
    if (names.length === 0 || failed.failure !== 'rejected') return false;
    const message = failed.cause.message;
    const named = names.filter((name) => message.includes(name));
    if (!REFUSAL.test(message) || named.length === 0) return false;
    if (Object.keys(this.#fields).length > 0) {
      this.#fields = {};
      this.#warn('the model server refused the thinking field; sent no more from this container', {
        fields: named,
        refusal: failed.detail,
        setting: 'MODEL_THINKING=on or MODEL_SERVER names the server (docs/model-thinking.md)',
      });
    }
    return true;
  }
}
