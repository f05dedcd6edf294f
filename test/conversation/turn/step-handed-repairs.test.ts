import { describe, expect, it } from 'vitest';
import { call, compile, reply } from '../../support/engine-fixtures';
import { runStep } from '../../support/step-fixture';

// Issue 29, item 2: parameter_repairs describes what the node received.
const withDefaults = compile({
  available_commands: [
    {
      command_name: 'set_volume',
      description: 'Set the volume.',
      parameters: [
        { name: 'level', type: 'int', required: true },
        { name: 'room', type: 'string', default: 'kitchen' },
      ],
      allow_direct_answer: true,
    },
  ],
});
const ruleOf = (repairs: readonly { parameter: string; rule: string }[]) =>
  repairs.map((repair) => `${repair.parameter}:${repair.rule}`);

describe('step: the repairs reported are those of the calls handed over', () => {
  it('the node got 7: the "5" -> 5 of the attempt the model redid is not reported', () => {
    // Act
    const { outcome } = runStep([
      reply(null, [call('set_timer', { duration_seconds: '5', label: 42 }, 'call_first')]),
      reply(null, [call('set_timer', { duration_seconds: 7, label: 'tea' }, 'call_second')]),
    ]);

    // Assess
    expect(outcome.toolCalls.map((toolCall) => JSON.parse(toolCall.arguments))).toEqual([
      { duration_seconds: 7, label: 'tea' },
    ]);
    expect(outcome.repairs).toEqual([]);
    expect(outcome.attemptRepairs).toBe(1);
  });

  it('under lenient, a default filled in a redone attempt and again in the call handed over is listed once', () => {
    // Act
    const { outcome } = runStep(
      [
        reply(null, [call('set_volume', { level: 'loud' }, 'call_first')]),
        reply(null, [call('set_volume', { level: '7' }, 'call_second')]),
      ],
      { commandSet: withDefaults, settings: { normalization: 'lenient' } },
    );

    // Assess
    expect(ruleOf(outcome.repairs)).toEqual(['room:fill_default', 'level:parse_integer_string']);
    expect(outcome.attemptRepairs).toBe(3);
  });

  it('a valid call held while another is redone, then repeated by the model, is reported once', () => {
    // Act
    const { outcome } = runStep([
      reply(null, [
        call('set_timer', { duration_seconds: '60' }, 'call_timer'),
        call('get_weather', { resolved_datetimes: ['tomorrow'] }, 'call_weather'),
      ]),
      reply(null, [
        call('set_timer', { duration_seconds: '60' }, 'call_timer_again'),
        call('get_weather', { resolved_datetimes: ['2026-01-17T05:00:00Z'] }, 'call_weather_2'),
      ]),
    ]);

    // Assess
    expect(outcome.toolCalls.map((toolCall) => toolCall.name)).toEqual([
      'set_timer',
      'get_weather',
    ]);
    expect(ruleOf(outcome.repairs)).toEqual(['duration_seconds:parse_integer_string']);
  });
});
