import {
  checkEntityArgument,
  type KnownEntities,
  type NormalizationPolicy,
  type ValidationIssue,
} from '../../params';
import type { ClarificationQuestion } from '../server-tools/request-validation-tool';
import { ServerToolName } from '../server-tools/server-tool-names';

/**
 * The question put to the user when the model could not produce valid arguments within its
 * retries: about the first invalid parameter the command declares, in words a person can answer
 * aloud. A name the command does not have is the model's mistake, not the user's to settle: when
 * nothing else is wrong the user is asked to say it another way. The options offered (the valid
 * values of the issue: an enum's, the closest listed entities) are those `listed` keeps
 * (`listedOptions`: an enum of the node's schema may name an entity its device list does not
 * hold), in the options and in the words alike.
 */
export function clarificationFor(
  issues: readonly ValidationIssue[],
  listed: (options: readonly string[]) => readonly string[] = (options) => options,
): ClarificationQuestion {
  const issue = issues.find(
    (candidate) => candidate.parameter !== null && candidate.code !== 'unknown_parameter',
  );
  if (issue === undefined || issue.parameter === null) {
    return {
      question: 'Sorry, could you say that another way?',
      parameterName: 'request',
      options: null,
    };
  }
  const parameterName = issue.parameter.replace(/\[\d+\]$/, '');
  const label = parameterName.replaceAll('_', ' ');
  const offered = issue.validValues === null ? [] : listed(issue.validValues);
  const options = offered.length > 0 ? offered : null;
  return { question: questionText(issue, label, options), parameterName, options };
}

function questionText(
  issue: ValidationIssue,
  label: string,
  options: readonly string[] | null,
): string {
  if (options !== null) return `Which ${label} do you want: ${spokenList(options)}?`;
  if (issue.code === 'missing_parameter') return `What ${label} should I use?`;
  if (/date|time|duration/i.test(issue.expected)) {
    return `Which exact ${label} do you mean? Please name the day or the time.`;
  }
  return `What ${label} do you mean?`;
}

function spokenList(options: readonly string[]): string {
  const spoken = options.map((option) => option.replaceAll('_', ' '));
  if (spoken.length <= 1) return spoken.join('');
  return `${spoken.slice(0, -1).join(', ')} or ${spoken.at(-1)}`;
}

/**
 * `question` with only the options the node may read out: each is checked as a call's argument
 * would be against the device list, so an entity id the list does not hold (in any shape) is left
 * out, and a miswritten listed one is offered as listed. The node never gets an entity it did not
 * list, not even as a choice for the user. Without a device list, the options are as asked.
 */
export function withListedOptions(
  question: ClarificationQuestion,
  entities: KnownEntities | null,
  policy: NormalizationPolicy,
): ClarificationQuestion {
  if (question.options === null) return question;
  const options = listedOptions(question.options, entities, policy);
  return { ...question, options: options.length > 0 ? options : null };
}

/**
 * The `options` the node may offer the user: each checked as a call's argument would be against
 * the device list, an unlisted entity id left out, a miswritten listed one as listed. Without a
 * device list, all of them.
 */
export function listedOptions(
  options: readonly string[],
  entities: KnownEntities | null,
  policy: NormalizationPolicy,
): readonly string[] {
  if (entities === null) return options;
  return options.flatMap((option) => {
    const check = checkEntityArgument(
      ServerToolName.requestValidation,
      { options: [option] },
      entities,
      policy,
    );
    if (!check.ok) return [];
    const [offered] = check.arguments.options as readonly string[];
    return offered === undefined ? [] : [offered];
  });
}
