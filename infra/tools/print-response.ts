/** Prints a VoiceCommandResponse the way a person wants to read it. */
export function printResponse(response: Record<string, unknown>): void {
  const lines = [
    `  stop_reason: ${String(response.stop_reason)}  (model calls: ${String(response.model_calls)})`,
  ];
  if (response.assistant_message)
    lines.push(`  assistant:   ${String(response.assistant_message)}`);
  for (const call of (response.tool_calls ?? []) as {
    id: string;
    function: { name: string; arguments: string };
  }[]) {
    lines.push(`  tool call:   ${call.function.name}(${call.function.arguments})  [${call.id}]`);
  }
  const validation = response.validation_request as {
    question: string;
    options: string[] | null;
  } | null;
  if (validation) {
    const options = validation.options ? `  options: ${validation.options.join(', ')}` : '';
    lines.push(`  question:    ${validation.question}${options}`);
  }
  for (const repair of (response.parameter_repairs ?? []) as {
    command: string;
    parameter: string;
    rule: string;
  }[]) {
    lines.push(`  repaired:    ${repair.command}.${repair.parameter} (${repair.rule})`);
  }
  for (const retry of (response.retries ?? []) as { reason: string }[])
    lines.push(`  retried:     ${retry.reason}`);
  console.log(lines.join('\n'));
}
