import { describe, expect, it } from 'vitest';
import { NO_COMMAND_ANSWER } from '../../../shared/conversation/turn/direct-answer';
import { assertValidHistory, call, compile, reply } from '../../support/engine-fixtures';
import { MUST_CALL_SET, runStep, TOMORROW } from '../../support/step-fixture';

describe('step: the loop (llm-failure-modes.md)', () => {
  it('server tools run in-process and their results go back to the model', () => {
    // Prepare
    const resolve = call('resolve_relative_date', { relative_term: 'tomorrow' }, 'call_date');
    const weather = call('get_weather', { resolved_datetimes: TOMORROW }, 'call_weather');

    // Act
    const { outcome, state } = runStep([reply(null, [resolve]), reply(null, [weather])]);

    // Assess
    expect(outcome.stopReason).toBe('tool_calls');
    expect(outcome.modelCalls).toBe(2);
    expect(outcome.retries).toEqual([]);
    const result = state.messages.find((message) => message.role === 'tool');
    expect(result?.content).toContain('2026-01-17T05:00:00Z');
    expect(outcome.toolCalls.map((toolCall) => toolCall.name)).toEqual(['get_weather']);
    assertValidHistory(state.messages);
  });

  it('get_command_utterance_examples returns the stored examples; unknown names give empty lists', () => {
    const lookUp = call('get_command_utterance_examples', { command_names: ['set_timer', 'nope'] });
    const { state } = runStep([reply(null, [lookUp]), reply('Done.')]);
    const result = JSON.parse(
      state.messages.find((message) => message.role === 'tool')?.content ?? '{}',
    );
    expect(result.commands.set_timer.examples[0].voice_command).toBe('Set a timer for 5 minutes');
    expect(result.commands.nope).toEqual({ examples: [], antipatterns: [] });
  });

  it('a model that calls server tools forever is stopped after 6 calls with a clear answer', () => {
    const forever = Array.from({ length: 6 }, (_, index) =>
      reply(null, [call('resolve_relative_date', { relative_term: 'today' }, `call_${index}`)]),
    );
    const { outcome, state } = runStep(forever);
    expect(outcome).toMatchObject({
      stopReason: 'complete',
      modelCalls: 6,
      stepLimitReached: true,
    });
    expect(outcome.assistantMessage).toMatch(/couldn't finish/);
    assertValidHistory(state.messages);
  });

  it('a direct answer where every tool must be called: every retry asks with tool_choice required, and the text is never the answer', () => {
    const { outcome, toolChoices } = runStep(
      [reply('Sure, timer set!'), reply('Timer set!'), reply('Done, the timer is set.')],
      { commandSet: MUST_CALL_SET },
    );
    expect(toolChoices).toEqual(['required', 'required']);
    expect(outcome).toMatchObject({
      stopReason: 'complete',
      assistantMessage: NO_COMMAND_ANSWER,
      modelCalls: 3,
    });
    expect(outcome.retries.map((retry) => retry.reason)).toEqual([
      'must_call_tool',
      'must_call_tool',
    ]);
  });

  it('where every tool must be called, the retry for invalid arguments asks with tool_choice required too', () => {
    const { outcome, toolChoices } = runStep(
      [
        reply(null, [call('set_timer', { duration_seconds: 'ten minutes' })]),
        reply(null, [call('set_timer', { duration_seconds: 600 })]),
      ],
      { commandSet: MUST_CALL_SET },
    );
    expect(toolChoices).toEqual(['required']);
    expect(outcome.stopReason).toBe('tool_calls');
  });

  it('a must-call retry that then calls the tool ends in tool_calls', () => {
    const { outcome } = runStep(
      [reply('Sure!'), reply(null, [call('set_timer', { duration_seconds: 60 })])],
      { commandSet: MUST_CALL_SET },
    );
    expect(outcome).toMatchObject({ stopReason: 'tool_calls', modelCalls: 2 });
  });

  it('a direct answer is accepted where some tool allows it (the fixture)', () => {
    const { outcome } = runStep([reply('Paris is the capital of France.')]);
    expect(outcome).toMatchObject({ stopReason: 'complete', modelCalls: 1, retries: [] });
  });

  it('the answer after the node’s tool results is final, whatever the policy', () => {
    const { outcome } = runStep([reply('The timer is running.')], {
      commandSet: MUST_CALL_SET,
      toolResultsArrived: true,
    });
    expect(outcome).toMatchObject({ stopReason: 'complete', modelCalls: 1, retries: [] });
  });

  it('request_validation from the model stops with validation_required and its tool_call_id', () => {
    const ask = call(
      'request_validation',
      { question: 'Which city?', parameter_name: 'city', options: ['Paris', 'Rome'] },
      'call_ask',
    );
    const { outcome, state } = runStep([reply(null, [ask])]);
    expect(outcome.stopReason).toBe('validation_required');
    expect(outcome.validationRequest).toEqual({
      question: 'Which city?',
      parameterName: 'city',
      options: ['Paris', 'Rome'],
      toolCallId: 'call_ask',
    });
    const last = state.messages.at(-1);
    expect(last?.role === 'assistant' && last.toolCalls.map((toolCall) => toolCall.id)).toEqual([
      'call_ask',
    ]);
  });

  it('an empty reply is retried once from the budget, then answered with an apology', () => {
    const { outcome } = runStep([reply(null), reply('  ')], {
      settings: { maxValidationRetries: 1 },
    });
    expect(outcome.stopReason).toBe('complete');
    expect(outcome.modelCalls).toBe(2);
    expect(outcome.assistantMessage).toMatch(/Sorry/);
  });
});

describe('step: a conversation without node commands', () => {
  it('accepts a direct answer (no must-call retry: there is nothing to call)', () => {
    const empty = compile({ available_commands: [], client_tools: [] });
    const { outcome } = runStep([reply('Hello.')], { commandSet: empty });
    expect(outcome).toMatchObject({ stopReason: 'complete', modelCalls: 1, retries: [] });
  });
});
