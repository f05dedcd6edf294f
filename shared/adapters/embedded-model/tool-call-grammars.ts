import type { LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import type { ToolDefinition } from '../../chat/chat-message';

/** Grammars kept: one per command set in use; a long-running process sees few. */
const GRAMMARS_KEPT = 16;
/** node-llama-cpp's JSON grammar's root, which ends in newlines its chat loop stops on. */
const OPEN_ENDED_ROOT = /^(root ::= .*?) "\\n\\n\\n\\n" \[\\n\]\*$/m;

/**
 * The grammar of one call to one of a request's tools in the model's JSON
 * (`{"name", "arguments"}`, each tool's arguments held to its JSON Schema), made once per set of
 * tools (LLM_TOOL_GRAMMAR=on).
 */
export class ToolCallGrammars {
  readonly #model: LlamaModel;
  readonly #grammars = new Map<string, Promise<LlamaGrammar | null>>();

  constructor(model: LlamaModel) {
    this.#model = model;
  }

  /** Null when there is no tool, or when a schema is beyond what node-llama-cpp's grammar takes. */
  for(tools: readonly ToolDefinition[]): Promise<LlamaGrammar | null> {
    if (tools.length === 0) return Promise.resolve(null);
    const key = JSON.stringify(tools);
    let grammar = this.#grammars.get(key);
    if (grammar === undefined) {
      // Never an unbounded map.
      if (this.#grammars.size >= GRAMMARS_KEPT) this.#grammars.clear();
      const schema = {
        oneOf: tools.map((tool) => ({
          type: 'object',
          properties: {
            name: { const: tool.function.name },
            arguments: tool.function.parameters,
          },
        })),
      };
      const llama = this.#model.llama;
      grammar = llama
        .createGrammarForJsonSchema(schema as never)
        // Ours ends with the object, after which llama.cpp lets the model write only its end of
        // turn.
        .then((json) =>
          llama.createGrammar({ grammar: json.grammar.replace(OPEN_ENDED_ROOT, '$1') }),
        )
        .catch(() => null);
      this.#grammars.set(key, grammar);
    }
    return grammar;
  }
}
