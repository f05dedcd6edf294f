import type { ConversationDependencies } from '../../shared/conversation';
import type { RouteDependencies } from '../http/create-route';

/** Everything a handler factory needs; production, the local server and the tests build one each. */
export interface ServiceDependencies {
  readonly conversation: ConversationDependencies;
  readonly route: RouteDependencies;
}
