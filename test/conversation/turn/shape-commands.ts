import type { CommandSetSource } from '../../../shared/params';

/** One command with a parameter of each type the "Argument shape" rows need. */
export const SHAPE_COMMANDS: CommandSetSource = {
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
      description: 'A command with required parameters.',
      parameters: [
        { name: 'amount', type: 'int', required: true },
        { name: 'operation', type: 'string', required: false, enum_values: ['add', 'subtract'] },
      ],
      allow_direct_answer: true,
    },
  ],
  client_tools: [],
};

export const MUST_CALL_COMMANDS: CommandSetSource = {
  available_commands: [
    {
      command_name: 'set_timer',
      description: 'Start a timer.',
      parameters: [{ name: 'duration_seconds', type: 'int', required: true }],
      allow_direct_answer: false,
    },
  ],
};
