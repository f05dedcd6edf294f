import { describe, expect, it } from 'vitest';
import { resolveRelativeDateTool } from '../../../../shared/conversation/server-tools/relative-date';

describe('resolveRelativeDateTool', () => {
  it('declares resolve_relative_date with one required string parameter, relative_term', () => {
    // Act
    const { type, function: definition } = resolveRelativeDateTool;

    // Assess
    expect(type).toBe('function');
    expect(definition.name).toBe('resolve_relative_date');
    expect(definition.parameters).toMatchObject({
      type: 'object',
      properties: { relative_term: { type: 'string' } },
      required: ['relative_term'],
    });
  });

  it('tells the model when to call it and which field to use for datetime parameters', () => {
    // Act
    const { description } = resolveRelativeDateTool.function;

    // Assess
    expect(description).toContain('utcValues');
  });

  it('keeps the name within the tool-name rule of the LLM APIs', () => {
    // Assess
    expect(resolveRelativeDateTool.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});
