import { ENTITY_ID_PATTERN, HOME_LIMITS } from './home-limits';

/** The agent whose `device_controls` is the device list (the node's device agent uses this name). */
export const DEVICE_AGENT = 'home_assistant';

/** One device of `agents.home_assistant.device_controls`, as far as it could be read. */
export interface ReportedDevice {
  readonly domain: string;
  readonly entityId: string;
  readonly name: string;
  readonly area: string;
  /** '' when the node did not say, or said `unknown` (its direct-device agent always does). */
  readonly state: string;
}

export interface ReportedDevices {
  readonly devices: readonly ReportedDevice[];
  /** Devices the node reported that could not be kept (no usable entity id, over the limit). */
  readonly left: number;
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The devices of `agents`: `{home_assistant: {device_controls: {<domain>: [{entity_id, name,
 * area, state}]}}}`, read in the node's order up to `HOME_LIMITS.devicesRead`. Anything of
 * another shape is skipped, never an error: the node's agents are best-effort context.
 */
export function readReportedDevices(agents: unknown): ReportedDevices {
  const agent = isRecord(agents) ? agents[DEVICE_AGENT] : undefined;
  const controls = isRecord(agent) ? agent.device_controls : undefined;
  if (!isRecord(controls)) return { devices: [], left: 0 };
  const devices: ReportedDevice[] = [];
  let left = 0;
  for (const [domain, entries] of Object.entries(controls)) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      const device = devices.length < HOME_LIMITS.devicesRead ? readDevice(domain, entry) : null;
      if (device === null) left += 1;
      else devices.push(device);
    }
  }
  return { devices, left };
}

function readDevice(domain: string, entry: unknown): ReportedDevice | null {
  if (!isRecord(entry)) return null;
  const entityId = entry.entity_id;
  if (typeof entityId !== 'string' || !ENTITY_ID_PATTERN.test(entityId)) return null;
  const name = typeof entry.name === 'string' && entry.name.trim() !== '' ? entry.name : entityId;
  const state = scalarText(entry.state);
  return {
    domain: ENTITY_ID_PATTERN.test(`${domain}.x`) ? domain : (entityId.split('.')[0] ?? domain),
    entityId,
    name,
    area: typeof entry.area === 'string' ? entry.area : '',
    state: state.toLowerCase() === 'unknown' ? '' : state,
  };
}

function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
