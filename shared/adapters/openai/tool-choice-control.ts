import type { ModelRequest } from '../../ports/language-model';
import type { AttemptFailure } from './classify-failure';
import type { ThinkingWarning } from './thinking-control';

/** A refusal of the request itself, as the SDK words it (`400 ...`); vLLM's validation may say 422. */
const REFUSAL = /^(400|422)\b/;

/**
 * `tool_choice: "required"` for one adapter instance (one container), until a server refuses it.
 * A turn where every command must be called asks with it on every retry (direct-answer.ts); a
 * server that answers 400 naming `tool_choice` is asked again at once without the field, and
 * never sent `required` again from this instance (logged once), as the thinking field is
 * (thinking-control.ts): the turn then still never ends in the model's direct answer.
 */
export class ToolChoiceControl {
  #refused = false;
  readonly #warn: ThinkingWarning;

  constructor(warn: ThinkingWarning) {
    this.#warn = warn;
  }

  /** Whether to send the request's `tool_choice` (false: leave the field out). */
  sends(choice: ModelRequest['toolChoice']): boolean {
    return choice !== 'required' || !this.#refused;
  }

  /**
   * Whether `failed` is the server refusing the `required` choice that was sent. If so it is not
   * sent again (the caller asks again without it) and a warning is logged, the first time only.
   */
  refusedBy(failed: AttemptFailure, sent: ModelRequest['toolChoice'] | null): boolean {
    if (sent !== 'required' || failed.failure !== 'rejected') return false;
    const message = failed.cause.message;
    if (!REFUSAL.test(message) || !message.includes('tool_choice')) return false;
    if (!this.#refused) {
      this.#refused = true;
      this.#warn(
        'the model server refused tool_choice "required"; sent no more from this container',
        {
          refusal: failed.detail,
        },
      );
    }
    return true;
  }
}
