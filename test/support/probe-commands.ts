import type { CommandSetSource } from '../../shared/params';

/**
 * The fixture declares no bool, dict or date parameter, so the "argument shape" rows run against
 * this set: one parameter of each type, plus a command with a required parameter and an enum.
 */
export const PROBE_COMMANDS: CommandSetSource = {
  available_commands: [
    {
      command_name: 'probe',
      description: 'A command with one parameter of each type.',
      parameters: [
        { name: 'count', type: 'int', required: false },
        { name: 'ratio', type: 'float', required: false },
        { name: 'enabled', type: 'bool', required: false },
        { name: 'where', type: 'dict', required: false },
        { name: 'when', type: 'array<datetime>', required: false },
        { name: 'day', type: 'date', required: false },
        { name: 'at', type: 'datetime', required: false },
        { name: 'label', type: 'string', required: false },
      ],
      allow_direct_answer: true,
    },
    {
      command_name: 'needs',
      description: 'A command with a required parameter and an enum.',
      parameters: [
        { name: 'amount', type: 'int', required: true },
        { name: 'operation', type: 'string', required: false, enum_values: ['add', 'subtract'] },
      ],
      allow_direct_answer: true,
    },
  ],
  client_tools: [],
};

/** Every command must be called: the must-call retry applies. */
export const MUST_CALL_COMMANDS: CommandSetSource = {
  available_commands: [
    {
      command_name: 'set_timer',
      description: 'Start a timer.',
      parameters: [{ name: 'duration_seconds', type: 'int', required: true }],
      allow_direct_answer: false,
    },
  ],
  client_tools: [],
};
