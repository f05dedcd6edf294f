import type { ReportedDevice } from './reported-devices';

/**
 * The domains a voice asks for most, first: when a home has more devices than the prompt holds,
 * these are kept before the others (which follow in the node's order).
 */
const DOMAIN_PRIORITY = [
  'light',
  'switch',
  'fan',
  'climate',
  'cover',
  'lock',
  'media_player',
  'scene',
  'script',
  'vacuum',
] as const;

/** A room or area compared as a person would say it: case, blanks and punctuation ignored. */
export function placeKey(place: string): string {
  return place.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The order in which devices are kept: those in the node's room first, then by domain (the
 * priority above, then the node's order of domains), each group in the node's order.
 */
export function keepOrder(
  devices: readonly ReportedDevice[],
  room: string | null,
): ReportedDevice[] {
  const roomKey = room === null ? '' : placeKey(room);
  const inRoom = (device: ReportedDevice) => roomKey !== '' && placeKey(device.area) === roomKey;
  const rank = domainRanks(devices);
  return devices
    .map((device, index) => ({ device, index }))
    .sort(
      (left, right) =>
        Number(inRoom(right.device)) - Number(inRoom(left.device)) ||
        (rank.get(left.device.domain) ?? 0) - (rank.get(right.device.domain) ?? 0) ||
        left.index - right.index,
    )
    .map(({ device }) => device);
}

/** Each domain's place in the listing: the priority domains, then the others as the node sent them. */
export function domainRanks(devices: readonly ReportedDevice[]): ReadonlyMap<string, number> {
  const ranks = new Map<string, number>(DOMAIN_PRIORITY.map((domain, index) => [domain, index]));
  for (const device of devices) {
    if (!ranks.has(device.domain)) ranks.set(device.domain, ranks.size);
  }
  return ranks;
}
