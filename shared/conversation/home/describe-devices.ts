import { domainRanks, keepOrder } from './device-order';
import { HOME_LIMITS } from './home-limits';
import { quoted } from './quoted-text';
import type { ReportedDevice } from './reported-devices';

/** The header of the device lines: how to read one. */
export const DEVICES_HEADER = 'Devices (entity_id "name" "area" state), by domain:';

export interface DescribedDevices {
  /** The device lines, grouped by domain; '' for no device. */
  readonly text: string;
  /** The devices listed, in the order they appear. */
  readonly listed: readonly ReportedDevice[];
}

/**
 * The device list the model reads: one line per device under a line per domain, within
 * `HOME_LIMITS.deviceListCharacters`. Devices are kept in `keepOrder` (the node's room first,
 * then by domain) while they fit; a line says how many were left out.
 */
export function describeDevices(
  devices: readonly ReportedDevice[],
  room: string | null,
  notRead: number,
): DescribedDevices {
  const kept: ReportedDevice[] = [];
  const domains = new Set<string>();
  let characters = DEVICES_HEADER.length;
  for (const device of keepOrder(devices, room)) {
    const added =
      deviceLine(device).length + 1 + (domains.has(device.domain) ? 0 : device.domain.length + 2);
    if (characters + added > HOME_LIMITS.deviceListCharacters) continue;
    characters += added;
    domains.add(device.domain);
    kept.push(device);
  }
  if (kept.length === 0) return { text: '', listed: [] };
  const rank = domainRanks(devices);
  const listed = kept
    .map((device, index) => ({ device, index }))
    .sort(
      (left, right) =>
        (rank.get(left.device.domain) ?? 0) - (rank.get(right.device.domain) ?? 0) ||
        left.index - right.index,
    )
    .map(({ device }) => device);
  const lines = [DEVICES_HEADER];
  let domain = '';
  for (const device of listed) {
    if (device.domain !== domain) lines.push(`${device.domain}:`);
    domain = device.domain;
    lines.push(deviceLine(device));
  }
  const omitted = devices.length - kept.length + notRead;
  if (omitted > 0) lines.push(`(${omitted} more devices not listed)`);
  return { text: lines.join('\n'), listed };
}

/** `light.office "Office Light" "Office" on`: the state only when the node knew it. */
function deviceLine(device: ReportedDevice): string {
  const parts = [
    device.entityId,
    quoted(device.name, HOME_LIMITS.nameCharacters),
    quoted(device.area, HOME_LIMITS.areaCharacters),
  ];
  if (device.state !== '') parts.push(stateText(device.state));
  return parts.join(' ');
}

/** A plain state (`on`, `72`, `heat_cool`) as it is; anything else quoted like a name. */
function stateText(state: string): string {
  return /^[\w.:+-]{1,24}$/.test(state) ? state : quoted(state, HOME_LIMITS.stateCharacters);
}
