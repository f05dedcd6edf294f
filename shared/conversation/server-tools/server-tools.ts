import type { ToolDefinition } from '../../chat/chat-message';
import { commandExamplesTool } from './command-examples-tool';
import { resolveRelativeDateTool } from './relative-date/resolve-relative-date-tool';
import { requestValidationTool } from './request-validation-tool';

/**
 * The server tools offered to the model beside the node's own, in a fixed order. Only what the
 * prompt needs: the runners (run-server-tool.ts, the date resolver and chrono-node) run in the
 * isolation worker, so the main thread's bundle must not import them through here. The date
 * tool's definition is imported from its own file, not the relative-date index, for that reason.
 */
export const SERVER_TOOLS: readonly ToolDefinition[] = [
  resolveRelativeDateTool,
  commandExamplesTool,
  requestValidationTool,
];
