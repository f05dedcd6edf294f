import type { Clock, IdGenerator } from '../../ports/clock';
import type { ConversationStore } from '../../ports/conversation-store';
import type { LanguageModel } from '../../ports/language-model';
import type { WarmUpMemory } from '../../ports/warm-up-memory';
import type { EngineSettings } from '../engine-settings';
import type { UntrustedWork } from '../turn/untrusted-work';

/** What the use cases need from the world; the handlers and the tests pass real adapters. */
export interface ConversationDependencies {
  readonly store: ConversationStore;
  /** Null when no model is configured (local runs): the voice routes then answer 503. */
  readonly model: LanguageModel | null;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly settings: EngineSettings;
  /** Compiling registrations and checking model replies, under a hard limit in production. */
  readonly untrustedWork: UntrustedWork;
  /**
   * The warm-ups this container did, so a start skips one done a moment ago and warms a command
   * set never warmed even when the node asks to skip; absent, a start does what the node asks.
   */
  readonly warmUps?: WarmUpMemory;
}

/** Who is asking: the authenticated node, with the context the registry holds for it. */
export interface CallingNode {
  readonly nodeId: string;
  readonly timezone: string | null;
  readonly room: string | null;
}
