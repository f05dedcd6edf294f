import fc from 'fast-check';
import {
  type CommandSpec,
  isPlaceholder,
  type ParameterSpec,
  type ScalarType,
} from '../../../shared/params';

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

const dayArbitrary = fc
  .date({
    min: new Date('0001-01-01T00:00:00Z'),
    max: new Date('9999-12-31T23:59:59Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString().slice(0, 10));

const clockArbitrary = fc
  .tuple(
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 59 }),
  )
  .map(([hours, minutes, seconds]) => `${pad(hours)}:${pad(minutes)}:${pad(seconds)}`);

const fractionArbitrary = fc.option(
  fc.integer({ min: 0, max: 999_999 }).map((digits) => `.${digits}`),
  {
    nil: '',
  },
);

const offsetArbitrary = fc.oneof(
  fc.constant('Z'),
  fc
    .tuple(
      fc.constantFrom('+', '-'),
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
    )
    .map(([sign, hours, minutes]) => `${sign}${pad(hours)}:${pad(minutes)}`),
);

const durationArbitrary = fc.oneof(
  fc.integer({ min: 0, max: 52 }).map((weeks) => `P${weeks}W`),
  fc
    .tuple(
      fc.option(fc.nat(99), { nil: undefined }),
      fc.option(fc.nat(99), { nil: undefined }),
      fc.option(fc.nat(99), { nil: undefined }),
      fc.option(fc.nat(99), { nil: undefined }),
    )
    .filter((parts) => parts.some((part) => part !== undefined))
    .map(([days, hours, minutes, seconds]) => {
      const date = days === undefined ? '' : `${days}D`;
      const time = [
        hours === undefined ? '' : `${hours}H`,
        minutes === undefined ? '' : `${minutes}M`,
        seconds === undefined ? '' : `${seconds}S`,
      ].join('');
      return `P${date}${time === '' ? '' : `T${time}`}`;
    }),
);

const SCALARS: Readonly<Record<ScalarType, fc.Arbitrary<unknown>>> = {
  // A placeholder ("", "none"...) is no value for a string parameter (llm-failure-modes.md).
  string: fc.string().filter((text) => !isPlaceholder(text)),
  int: fc.integer(),
  float: fc.double({ noNaN: true, noDefaultInfinity: true }),
  bool: fc.boolean(),
  date: dayArbitrary,
  datetime: fc
    .tuple(dayArbitrary, clockArbitrary, fractionArbitrary, offsetArbitrary)
    .map(([day, clock, fraction, offset]) => `${day}T${clock}${fraction}${offset}`),
  time: fc
    .tuple(clockArbitrary, fc.boolean(), fc.option(offsetArbitrary, { nil: '' }))
    .map(([clock, short, offset]) => `${short ? clock.slice(0, 5) : clock}${offset}`),
  timedelta: durationArbitrary,
};

/** The enum a rendered property schema offers (on items for arrays), if any. */
function schemaEnum(parameter: ParameterSpec): readonly unknown[] | null {
  const { schema } = parameter;
  const items = schema.items as Readonly<Record<string, unknown>> | undefined;
  const values = parameter.type?.kind === 'array' ? items?.enum : schema.enum;
  return Array.isArray(values) ? values : null;
}

function scalarOrEnum(
  scalar: ScalarType,
  values: readonly unknown[] | null,
): fc.Arbitrary<unknown> {
  return values === null ? SCALARS[scalar] : fc.constantFrom(...values);
}

/** Values valid for a parameter, generated from its rendered schema and type. */
export function validValue(parameter: ParameterSpec): fc.Arbitrary<unknown> {
  const { type } = parameter;
  const values = schemaEnum(parameter);
  if (type === null) throw new Error(`no generator for the untyped parameter ${parameter.name}`);
  switch (type.kind) {
    case 'scalar':
      return scalarOrEnum(type.scalar, values);
    case 'array':
      return fc.array(type.items === null ? fc.jsonValue() : scalarOrEnum(type.items, values), {
        maxLength: 4,
      });
    case 'dict':
      return fc.dictionary(fc.string(), fc.jsonValue());
  }
}

/** Arguments valid for a command: every required parameter, any of the optional ones. */
export function validArguments(command: CommandSpec): fc.Arbitrary<Record<string, unknown>> {
  const model = Object.fromEntries(
    command.parameters.map((parameter) => [parameter.name, validValue(parameter)]),
  );
  const requiredKeys = command.parameters
    .filter((parameter) => parameter.required)
    .map((parameter) => parameter.name);
  return fc.record(model, { requiredKeys });
}

/** The shapes models send instead of a valid value: strings of it, JSON of it, case and blanks. */
function variants(value: unknown): unknown[] {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const variants: unknown[] = [
    value,
    String(value),
    text,
    `[${text}]`,
    null,
    'None',
    '',
    'tomorrow',
  ];
  if (typeof value === 'string') {
    variants.push(value.toLowerCase(), value.replace('T', ' '), ` ${value} `, value.slice(0, 16));
  }
  if (Array.isArray(value)) variants.push(value[0], value.map(String));
  if (typeof value === 'number' || typeof value === 'boolean')
    variants.push(value ? 'yes' : 'no', value ? 1 : 0);
  return variants;
}

/** Arguments as models really send them: valid, repairable or plain wrong, with stray names. */
export function messyArguments(command: CommandSpec): fc.Arbitrary<Record<string, unknown>> {
  const model = Object.fromEntries(
    command.parameters.map((parameter) => [
      parameter.name,
      fc.oneof(
        validValue(parameter).chain((value) => fc.constantFrom(...variants(value))),
        fc.jsonValue(),
      ),
    ]),
  );
  return fc
    .tuple(
      fc.record(model, { requiredKeys: [] }),
      fc.dictionary(fc.constantFrom('question', 'extra', 'when'), fc.jsonValue()),
    )
    .map(([known, stray]) => ({ ...stray, ...known }));
}

/** Freezes a JSON value all the way down, so any mutation by the code under test throws. */
export function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFrozen(inner);
    Object.freeze(value);
  }
  return value;
}
