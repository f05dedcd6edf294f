import type { ConversationDependencies } from '../../shared/conversation';
import type { RouteDependencies } from '../http/create-route';
import type { WakeAndChatDependencies } from './wake-and-chat-dependencies';

/** Everything a handler factory needs; production, the local server and the tests build one each. */
export interface ServiceDependencies extends WakeAndChatDependencies {
  readonly conversation: ConversationDependencies;
  readonly route: RouteDependencies;
}
