import type { Repair } from '../normalization/repair';
import { makeIssue } from '../validation/make-issue';
import type { IssueFacts, ValidationIssue } from '../validation/validation-issue';
import {
  hasEntityIdForm,
  looseEntityKey,
  SPLIT_ID_DOMAIN_KEYS,
  SPLIT_ID_OBJECT_KEYS,
} from './entity-id-shape';
import type { KnownEntities } from './known-entities';

/**
 * What stands in a response to the node where the model wrote an entity id the node did not list:
 * the node is told that there was one, never which (it would be an entity it did not list).
 */
export const UNLISTED_ENTITY = '[an entity the node did not list]';

/**
 * A run of what an id may be made of as `hasEntityIdForm` reads it: letters (full-width ones
 * too), digits, marks, `_`, `-`, `%`, the stops and their compatibility forms (`．`, `﹒`,
 * `＿`), and what a reader does not see (format and other default-ignorable code points, control
 * characters other than blanks and NUL, which ends an id for a C reader). The letters of scripts
 * written without spaces end a run: in `打开lock.back_door吧` the id stands between them.
 */
const ID_RUN =
  /(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}])[\p{L}\p{N}\p{M}\p{Cf}\p{Default_Ignorable_Code_Point}_\-.%\u2024\ufe33\ufe34\ufe4d-\ufe4f\ufe52\ufe63\ufe6a\uff05\uff0d\uff0e\uff3f]|(?![\s\0])\p{Cc})+/gu;
/** A stop (or its compatibility forms) or a percent sign, which every id in a run holds. */
const MAY_HOLD_ID = /[.%\u2024\ufe52\ufe6a\uff05\uff0e]/u;
/** The stop between a domain and an object id, and its compatibility forms. */
const STOP = /[.\u2024\ufe52\uff0e]/gu;

/** True when `id` is one the node listed, as it wrote it or miswritten (case, punctuation). */
function listed(id: string, entities: KnownEntities): boolean {
  return entities.exact.has(id) || entities.byLooseKey.has(looseEntityKey(id));
}

/** Whether unlisted ids are told apart at all: only a complete list says an id is not the node's. */
const redacts = (entities: KnownEntities | null): entities is KnownEntities =>
  entities?.complete === true;

/**
 * `text` with every entity id the node did not list replaced by `UNLISTED_ENTITY`, wherever it
 * stands (in a sentence, quoted, in JSON, at a sentence's end, miswritten with invisible
 * characters or full-width letters): the id is read as the entity check reads one
 * (`hasEntityIdForm`), on each pair of parts around a stop of a run of id characters, and on a
 * part holding a percent escape. A listed id, or one differing from a listed id in case or
 * punctuation, stays. With no list, or one the node cut short, nothing changes (an unknown id
 * may exist, and passes the check too). Linear in the text.
 */
export function withoutUnlistedEntityIds(text: string, entities: KnownEntities | null): string {
  if (!redacts(entities)) return text;
  const ranges = unlistedIdRanges(text, entities);
  if (ranges.length === 0) return text;
  let result = '';
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    result += text.slice(at, Math.max(at, start)) + (start >= at ? UNLISTED_ENTITY : '');
    at = end;
  }
  return result + text.slice(at);
}

/**
 * The entity ids the node did not list inside `text`, as written there (`"open lock.garage_door
 * now"`, `"/api/states/lock.garage_door"`, `"['lock.a', 'lock.b']"`): what the entity check sends
 * back wherever an id stands in other text. Read as `withoutUnlistedEntityIds` reads them.
 */
export function unlistedEntityIdsIn(text: string, entities: KnownEntities): string[] {
  return unlistedIdRanges(text, entities).map(([start, end]) => text.slice(start, end));
}

/**
 * What follows the last dot of a file name or a host name (`image.png`, `schedule.xlsx`,
 * `weather.gov`): read inside text, such a pair is the name of a file or a site, not an entity
 * (the whole-string check still reads `image.png` standing alone as an id). Common extensions and
 * the generic top-level domains; no country's two letters (a listed id cut short, `lock.fr…`,
 * would pass as a site).
 */
const NOT_OBJECT_IDS: ReadonlySet<string> = new Set(
  [
    'png jpg jpeg gif svg webp bmp ico heic heif tif tiff avif raw mp3 mp4 m4a wav ogg flac aac',
    'webm mov mkv avi txt md rtf log json js mjs cjs ts tsx jsx css scss html htm xml yaml yml',
    'toml ini cfg conf ics vcf csv tsv pdf doc docx xls xlsx ppt pptx odt ods odp epub zip gz tgz',
    'bz2 xz 7z rar tar iso dmg apk ipa exe msi deb rpm bin sh bash ps1 bat py rb go rs java kt',
    'swift php pl lua sql db sqlite cpp hpp cs com org net gov edu mil int info biz app dev',
  ]
    .join(' ')
    .split(' '),
);

/**
 * True when the pair at `index` is two labels of a longer dotted name (`time.google.com`,
 * `www.sensor.example`, `lock.garage_door.state`): an entity id has one dot, and Home Assistant
 * reads no id out of such a name. A stop at the end (a sentence's, an ellipsis) is not a label.
 */
function dottedName(parts: readonly { readonly text: string }[], index: number): boolean {
  return (parts[index - 1]?.text ?? '') !== '' || (parts[index + 2]?.text ?? '') !== '';
}

/**
 * True when the pair from `start` to `end` of `text` reads as something else than an entity id:
 * a capital in the object id of a pair not all in capitals marks prose or code (`light.Then`,
 * `Sun.Ra`, `number.toFixed`), where an id is written in lower case, all in capitals, or with its
 * sentence's capital first (`Lock.garage_door`); a call (`time.sleep(5)`); an e-mail address
 * (`fan.zhang@…`, `info@weather.gov`); a host after `//` or a scheme's colon
 * (`https://group.me`, `site:weather.gov`).
 */
function otherName(text: string, start: number, end: number, objectAt: number): boolean {
  const pair = text.slice(start, end).normalize('NFKC');
  const object = text.slice(objectAt, end).normalize('NFKC');
  if (/[A-Z]/.test(object) && /[a-z]/.test(pair)) return true;
  const after = text[end];
  if (after === '@' || after === '(') return true;
  const before = text[start - 1];
  return before === '@' || before === ':' || (before === '/' && text[start - 2] === '/');
}

/** Where `text` holds ids the node did not list: [start, end) ranges, in order, may overlap. */
function unlistedIdRanges(text: string, entities: KnownEntities): [number, number][] {
  const ranges: [number, number][] = [];
  for (const run of text.matchAll(ID_RUN)) {
    // Most runs are words: without a stop or a percent sign they hold no id.
    if (!MAY_HOLD_ID.test(run[0])) continue;
    const start = run.index;
    const parts: { text: string; at: number }[] = [];
    let from = 0;
    for (const stop of run[0].matchAll(STOP)) {
      parts.push({ text: run[0].slice(from, stop.index), at: start + from });
      from = stop.index + stop[0].length;
    }
    parts.push({ text: run[0].slice(from), at: start + from });
    const unlisted = (candidate: string) =>
      hasEntityIdForm(candidate, entities.domains) && !listed(candidate, entities);
    for (let index = 0; index < parts.length; index += 1) {
      const part = parts[index] as { text: string; at: number };
      const next = parts[index + 1];
      if (
        next !== undefined &&
        !dottedName(parts, index) &&
        !NOT_OBJECT_IDS.has(next.text.normalize('NFKC').toLowerCase())
      ) {
        const end = next.at + next.text.length;
        if (!otherName(text, part.at, end, next.at) && unlisted(text.slice(part.at, end))) {
          ranges.push([part.at, end]);
        }
      }
      if (part.text.includes('%') && unlisted(part.text)) {
        ranges.push([part.at, part.at + part.text.length]);
      }
    }
  }
  return ranges;
}

/**
 * A JSON value with every unlisted entity id in it replaced (`withoutUnlistedEntityIds`): in its
 * strings, in its keys, and an id split in `domain` and `object_id` (its object id replaced).
 * A new value; `value` is not changed. Depth is bounded by what the value came from (arguments
 * of at most 8 KiB, checked for nesting before any issue is written).
 */
export function valueWithoutUnlistedEntityIds(
  value: unknown,
  entities: KnownEntities | null,
): unknown {
  if (!redacts(entities)) return value;
  const redact = (item: unknown): unknown => {
    if (typeof item === 'string') return withoutUnlistedEntityIds(item, entities);
    if (typeof item !== 'object' || item === null) return item;
    if (Array.isArray(item)) return item.map(redact);
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(item)) {
      Object.defineProperty(copy, withoutUnlistedEntityIds(key, entities), {
        value: redact(child),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    withoutSplitIds(item as Record<string, unknown>, copy, entities);
    return copy;
  };
  return redact(value);
}

/** The object ids of `copy` whose join with its domain (read from `original`) is unlisted. */
function withoutSplitIds(
  original: Record<string, unknown>,
  copy: Record<string, unknown>,
  entities: KnownEntities,
) {
  const keys = Object.keys(original);
  const domainKey = keys.find((key) => SPLIT_ID_DOMAIN_KEYS.has(looseEntityKey(key)));
  const domain = domainKey === undefined ? undefined : original[domainKey];
  if (typeof domain !== 'string') return;
  for (const key of keys.filter((each) => SPLIT_ID_OBJECT_KEYS.has(looseEntityKey(each)))) {
    const objectId = original[key];
    if (typeof objectId !== 'string') continue;
    const id = `${domain.trim()}.${objectId.trim()}`;
    if (hasEntityIdForm(id, entities.domains) && !listed(id, entities)) {
      copy[withoutUnlistedEntityIds(key, entities)] = UNLISTED_ENTITY;
    }
  }
}

/**
 * An issue as the node reads it in `retries`: the model's tool name, the path, what it sent and
 * what the check expected (a JSON parser's error may quote the text) without unlisted ids, and
 * the message written again from them. The model's own copy (its retry message) keeps them: it
 * must see what to correct.
 */
export function issueWithoutUnlistedEntityIds(
  issue: ValidationIssue,
  entities: KnownEntities | null,
): ValidationIssue {
  if (!redacts(entities)) return issue;
  const text = (value: string) => withoutUnlistedEntityIds(value, entities);
  const facts: IssueFacts = {
    code: issue.code,
    command: text(issue.command),
    parameter: issue.parameter === null ? null : text(issue.parameter),
    expected: text(issue.expected),
    received: valueWithoutUnlistedEntityIds(issue.received, entities),
    validValues: issue.validValues,
    parameterType: issue.parameterType ?? null,
  };
  const rewritten = makeIssue(facts);
  // The message cuts a long value short: a listed id cut there (`light.off...`) is another id.
  return { ...rewritten, message: text(rewritten.message) };
}

/** A repair as the node reads it in `parameter_repairs`, without unlisted ids. */
export function repairWithoutUnlistedEntityIds(
  repair: Repair,
  entities: KnownEntities | null,
): Repair {
  if (!redacts(entities)) return repair;
  return {
    ...repair,
    command: withoutUnlistedEntityIds(repair.command, entities),
    parameter: withoutUnlistedEntityIds(repair.parameter, entities),
    before: valueWithoutUnlistedEntityIds(repair.before, entities),
    after: valueWithoutUnlistedEntityIds(repair.after, entities),
  };
}
