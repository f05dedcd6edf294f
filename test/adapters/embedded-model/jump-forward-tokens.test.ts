import type { Token } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import { QwenCallPlanner } from '../../../shared/adapters/embedded-model/qwen-call-planner';
import { requestPrefixFor } from '../../../shared/conversation/turn/run-turn';
import { compile, fixtureRegistration } from '../../support/engine-fixtures';
import { useTinyModel } from '../../support/random-gguf/tiny-model-file';

const tinyModel = useTinyModel();

/** Calls of the fixture node's commands as Qwen3 writes them, required keys in declared order. */
const CALL_BODIES = [
  '{"name": "get_weather", "arguments": {"resolved_datetimes": ["2026-11-27T12:00:00+01:00"]}}',
  '{"name": "get_weather", "arguments": {"resolved_datetimes": ["2026-11-26T12:00:00+01:00"], "city": "Paris"}}',
  '{"name": "set_timer", "arguments": {"duration_seconds": 600, "label": "pasta"}}',
  '{"name": "control_device", "arguments": {"device_name": "kitchen lights", "action": "turn_on"}}',
  '{"name": "tell_joke", "arguments": {"topic": "cats"}}',
  '{"name": "get_current_time", "arguments": {}}',
];

/**
 * The model writes the call's own tokens; after each, the planner's forced text is tokenized
 * alone, as the adapter does. Returns the forced pieces that differ from the call's own tokens
 * or end inside one of them, and the count of forced tokens.
 */
function jumpThrough(planner: QwenCallPlanner, call: string) {
  const own = tinyModel().tokenize(call, false);
  const ownEnds: number[] = [];
  let length = 0;
  for (const token of own) {
    length += tinyModel().detokenize([token], true).length;
    ownEnds.push(length);
  }
  const seams: string[] = [];
  let text = '';
  let index = 0;
  let forcedTokens = 0;
  while (index < own.length) {
    text += tinyModel().detokenize([own[index] as Token], true);
    index += 1;
    const forced = planner.forcedAfter(text);
    if (forced === '') continue;
    const tokens = tinyModel().tokenize(forced, false);
    if (tokens.some((token, at) => token !== own[index + at])) seams.push(forced);
    text += forced;
    forcedTokens += tokens.length;
    const end = ownEnds.indexOf(text.length);
    if (end < 0) {
      seams.push(`${forced} (ends inside a token)`);
      break;
    }
    index = end + 1;
  }
  return { seams, forcedTokens, written: own.length };
}

describe("Jump-forward's seam: Qwen3's real tokenizer through the binding", () => {
  it.each(CALL_BODIES)("forced text tokenized alone is the call's own tokens: %s", (body) => {
    // Prepare
    const call = `<tool_call>\n${body}\n</tool_call>`;
    const { tools } = requestPrefixFor(compile(fixtureRegistration()));
    const planner = new QwenCallPlanner(tools);

    // Act
    const { seams, forcedTokens, written } = jumpThrough(planner, call);

    // Assess
    expect(seams).toEqual([]);
    expect(forcedTokens).toBeGreaterThanOrEqual(6);
    expect(forcedTokens).toBeLessThan(written);
  });
});
