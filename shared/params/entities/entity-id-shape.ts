/**
 * Home Assistant's entity domains (the part of an entity id before the dot), as of 2026: every
 * entity platform (`homeassistant.const.Platform`: `tts`, `wake_word`, `ai_task` too) and the
 * integrations whose entities carry their own domain (`alert`, `plant`, the helpers). A string
 * of the form `<domain>.<object_id>` with one of these, or with a domain of the node's own device
 * list, is an entity id wherever it stands in a call's arguments.
 */
export const ENTITY_DOMAINS: ReadonlySet<string> = new Set([
  'ai_task',
  'air_quality',
  'alert',
  'alarm_control_panel',
  'assist_satellite',
  'automation',
  'binary_sensor',
  'button',
  'calendar',
  'camera',
  'climate',
  'conversation',
  'counter',
  'cover',
  'date',
  'datetime',
  'device_tracker',
  'event',
  'fan',
  'geo_location',
  'group',
  'humidifier',
  'image',
  'image_processing',
  'input_boolean',
  'input_button',
  'input_datetime',
  'input_number',
  'input_select',
  'input_text',
  'lawn_mower',
  'light',
  'lock',
  'media_player',
  'notify',
  'number',
  'person',
  'plant',
  'remote',
  'scene',
  'schedule',
  'script',
  'select',
  'sensor',
  'siren',
  'stt',
  'sun',
  'switch',
  'tag',
  'text',
  'time',
  'timer',
  'todo',
  'tts',
  'update',
  'vacuum',
  'valve',
  'wake_word',
  'water_heater',
  'weather',
  'zone',
]);

/**
 * The loose keys (`looseEntityKey`) of the property names whose every string is an entity id:
 * `entity_id` and `entity_ids` however a model or a schema spells them (`entityId`, `Entity-IDs`,
 * full-width letters, a zero-width space inside).
 */
const ENTITY_PROPERTY_KEYS: ReadonlySet<string> = new Set(['entityid', 'entityids']);

/**
 * `<domain>.<object_id>` once compatibility forms are folded (full-width letters, the full-width
 * stop), invisible characters taken out (`INVISIBLE`), the ends trimmed and the case lowered: the
 * domain letters, digits and `_` as a device list may write it (`1wire`; that it is a known
 * domain is checked apart), the object id letters of any script, digits, `_` and `-` (a
 * miswritten id is still an id), never a blank (that is text about a device, not an id).
 */
const ENTITY_ID_FORM = /^([a-z0-9_]+)\.([\p{L}\p{N}_-]+)$/u;

/**
 * `Light.Office-Lamp`, `light.office_lamp`, `light.office%5Flamp` and `ｌｉｇｈｔ．ｏｆｆｉｃｅ＿ｌａｍｐ`
 * alike: percent escapes decoded, compatibility forms folded, lower case, letters and digits only.
 */
export function looseEntityKey(text: string): string {
  return percentDecoded(text)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** True for a property whose every string is an entity id, whatever its spelling. */
export function isEntityProperty(name: string): boolean {
  return ENTITY_PROPERTY_KEYS.has(looseEntityKey(name));
}

/**
 * True when `text` has the form of an entity id of one of `domains` (`ENTITY_DOMAINS` and the
 * device list's): `lock.garage_door`, `Lock.Garage-Door `, `ｌｏｃｋ．ｇａｒａｇｅ＿ｄｏｏｒ`,
 * `lock.garage_door` with invisible characters inside or a NUL and anything after it.
 * `example.com`, `notes.txt` and `3.5` are not. Linear in the text, and arguments are bounded
 * in bytes (8 KiB a call).
 */
export function hasEntityIdForm(text: string, domains: ReadonlySet<string>): boolean {
  const folded = cString(percentDecoded(text))
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .trim()
    .toLowerCase();
  const domain = ENTITY_ID_FORM.exec(folded)?.[1];
  return domain !== undefined && domains.has(domain);
}

/**
 * What a reader of the id does not see: format characters (a zero-width space), the other
 * default-ignorable code points (a variation selector, the combining grapheme joiner, a Hangul
 * filler) and control characters.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cc}]/gu;

/**
 * `text` up to its first NUL, as a node written in C reads it (`lock.garage_door\u0000 now` is
 * `lock.garage_door` to cJSON's caller).
 */
function cString(text: string): string {
  const end = text.indexOf('\u0000');
  return end === -1 ? text : text.slice(0, end);
}

/**
 * `text` with its percent escapes decoded (`lock.garage%5Fdoor`: a node that puts an argument in
 * a URL path, as Home Assistant's REST API takes ids, sends the decoded id), or as it is when it
 * holds none or a malformed one.
 */
function percentDecoded(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** What separates the ids of a list in one string: Home Assistant reads `a.x, b.y` as two ids. */
const LIST_SEPARATOR = /([\s,;]+)/u;

/**
 * `text` cut into its ids and what separates them (`["lock.a", ", ", "light.b"]`, ids at the even
 * places), when it is a list of strings of the form of an entity id: two or more, or one with a
 * comma or a semicolon beside it (`"lock.a,"`: a node that skips empty items reads one id);
 * else null.
 */
export function entityIdList(text: string, domains: ReadonlySet<string>): string[] | null {
  const parts = text.split(LIST_SEPARATOR);
  let ids = 0;
  for (let index = 0; index < parts.length; index += 2) {
    const part = parts[index] ?? '';
    if (part === '') continue;
    if (!hasEntityIdForm(part, domains)) return null;
    ids += 1;
  }
  if (ids >= 2) return parts;
  const listed = ids === 1 && parts.some((part, index) => index % 2 === 1 && /[,;]/u.test(part));
  return listed ? parts : null;
}

/** The loose keys of the property that may hold the part of a split id before the dot. */
export const SPLIT_ID_DOMAIN_KEYS: ReadonlySet<string> = new Set(['domain', 'entitydomain']);

/**
 * The loose keys of a property beside `domain` that may hold the part of a split id after the
 * dot: Home Assistant's `object_id`, and the names a schema gives it. Only a join of the form of
 * an id of a known domain is read (`{"domain": "lock", "name": "Garage Door"}` is not).
 */
export const SPLIT_ID_OBJECT_KEYS: ReadonlySet<string> = new Set([
  'objectid',
  'entityobjectid',
  'entity',
  'entityname',
  'id',
  'name',
]);
