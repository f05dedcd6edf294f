import { describe, expect, it } from 'vitest';
import {
  buildHomeContext,
  HOME_BLOCK_CLOSING,
  HOME_BLOCK_OPENING,
} from '../../../shared/conversation/home/build-home-context';
import { DEVICES_HEADER } from '../../../shared/conversation/home/describe-devices';
import { HOME_LIMITS } from '../../../shared/conversation/home/home-limits';
import { homeAgents } from '../../support/home-fixture';

const device = (entityId: string, name: string, area: string, state = 'off') => ({
  entity_id: entityId,
  name,
  area,
  state,
});
const withDevices = (controls: Record<string, unknown>) => ({
  home_assistant: { device_controls: controls },
});

describe('buildHomeContext: the home block of the real node’s agents', () => {
  it('lists every device of the fixture, one line each, grouped by domain, between its markers', () => {
    const home = buildHomeContext(homeAgents(), 'Office');

    const lines = home?.prompt.split('\n') ?? [];
    expect(lines[0]).toBe(HOME_BLOCK_OPENING);
    expect(lines[1]).toBe(DEVICES_HEADER);
    expect(lines.at(-1)).toBe(HOME_BLOCK_CLOSING);
    expect(lines.filter((line) => /^[a-z_]+\.[a-z0-9_]+ "/.test(line))).toHaveLength(50);
    expect(lines.filter((line) => /^[a-z_]+:$/.test(line))).toEqual([
      'light:',
      'switch:',
      'fan:',
      'climate:',
      'cover:',
      'lock:',
      'media_player:',
      'scene:',
      'vacuum:',
      'camera:',
    ]);
    expect(home?.entityIds).toHaveLength(50);
    expect(home?.entityIdsComplete).toBe(true);
  });

  it('puts the room’s devices first in their domain and leaves out a state of unknown', () => {
    const home = buildHomeContext(homeAgents(), 'office');

    const lines = home?.prompt.split('\n') ?? [];
    const switches = lines.slice(lines.indexOf('switch:') + 1, lines.indexOf('switch:') + 3);
    expect(switches).toEqual([
      'switch.office_fan_plug "Office Fan Plug" "Office" off',
      'switch.monitor_power "Monitor Power" "Office" on',
    ]);
    expect(lines).toContain('scene.movie_night "Movie Night" "Living Room"');
  });

  it('is the same text for the same agents: a stable prompt prefix', () => {
    expect(buildHomeContext(homeAgents(), 'Office')).toEqual(
      buildHomeContext(structuredClone(homeAgents()), 'Office'),
    );
  });

  it('keeps a large home within its limit: the room first, then by domain, the rest counted', () => {
    const lights = Array.from({ length: 300 }, (_, index) =>
      device(`light.lamp_${index}`, `Lamp ${index}`, 'Warehouse'),
    );
    const locks = [device('lock.office_door', 'Office Door', 'Office', 'locked')];
    const sensors = [device('sensor.far_away', 'Far Away', 'Shed', '12')];

    const home = buildHomeContext(
      withDevices({ sensor: sensors, light: lights, lock: locks }),
      'Office',
    );

    const prompt = home?.prompt ?? '';
    const devices = prompt.split('\n').filter((line) => /^[a-z_]+\.\S+ "/.test(line));
    expect(devices.join('\n').length).toBeLessThanOrEqual(HOME_LIMITS.deviceListCharacters);
    expect(devices[devices.length - 1]).toBe('lock.office_door "Office Door" "Office" locked');
    expect(prompt).not.toContain('sensor.far_away');
    expect(prompt).toMatch(new RegExp(`\\(${302 - devices.length} more devices not listed\\)`));
    // Every id stays checkable: the list is cut for the prompt, not for validation.
    expect(home?.entityIds).toHaveLength(302);
    expect(home?.entityIdsComplete).toBe(true);
  });

  it('marks the ids incomplete when the node reported devices it could not keep', () => {
    const home = buildHomeContext(
      withDevices({
        light: [device('light.ok', 'OK', ''), device('light with spaces', 'Bad', '')],
      }),
      null,
    );

    expect(home?.entityIds).toEqual(['light.ok']);
    expect(home?.entityIdsComplete).toBe(false);
    expect(home?.prompt).toContain('(1 more devices not listed)');
  });

  it('fits the bytes it is given, and is left out when a registration leaves none', () => {
    const ids = Array.from({ length: 500 }, (_, index) =>
      device(`switch.a_rather_long_outlet_name_${index}`, `Outlet ${index}`, 'Garage'),
    );

    const roomy = buildHomeContext(withDevices({ switch: ids }), null);
    const tight = buildHomeContext(withDevices({ switch: ids }), null, 8_000);
    const none = buildHomeContext(withDevices({ switch: ids }), null, 0);

    expect(roomy?.entityIdsComplete).toBe(false);
    expect(JSON.stringify(roomy).length).toBeLessThanOrEqual(HOME_LIMITS.storedBytes);
    expect(tight?.entityIds.length).toBeLessThan(ids.length);
    expect(JSON.stringify(tight).length).toBeLessThanOrEqual(8_000);
    expect(none).toBeNull();
  });

  it.each([
    ['no agents', undefined],
    ['agents that are not an object', 'home_assistant'],
    ['a device agent without device_controls', { home_assistant: { last_error: 'down' } }],
  ])('is null for %s', (_case, agents) => {
    expect(buildHomeContext(agents, 'Office')).toBeNull();
  });

  it('skips whatever is not a device, and keeps what is', () => {
    const home = buildHomeContext(
      withDevices({
        light: [null, 7, 'light.text', { name: 'No id' }, device('light.real', 'Real', 'Hall')],
        switch: { entity_id: 'switch.not_a_list' },
      }),
      null,
    );

    expect(home?.entityIds).toEqual(['light.real']);
  });
});
