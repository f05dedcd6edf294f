export { OpenAiLanguageModel, type OpenAiLanguageModelOptions } from './openai-language-model';
