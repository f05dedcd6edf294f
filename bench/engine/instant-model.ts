import type {
  LanguageModel,
  ModelCallOptions,
  ModelReply,
  ModelRequest,
} from '../../shared/ports/language-model';

/** Chooses the reply to a request; the benchmark's stand-in for the model's judgement. */
export type ReplyScript = (request: ModelRequest) => ModelReply;

/**
 * A `LanguageModel` that answers at once from a script, in process. It fakes the one external
 * system whose time we must leave out: what remains is the server's own overhead per turn.
 */
export class InstantLanguageModel implements LanguageModel {
  #calls = 0;

  constructor(private readonly script: ReplyScript) {}

  /** How many times the engine asked, over the model's whole life. */
  get calls(): number {
    return this.#calls;
  }

  complete(request: ModelRequest, _options: ModelCallOptions): Promise<ModelReply> {
    this.#calls += 1;
    return Promise.resolve(this.script(request));
  }
}
