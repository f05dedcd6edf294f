import { describe, expect, it } from 'vitest';
import { LocalSettingsError, readLocalSettings } from '../../../infra/local/local-settings';

describe('readLocalSettings: LOCAL_NODE_TIMEZONE', () => {
  it.each(['Europe/Berlin', 'UTC', 'America/Argentina/Buenos_Aires'])('takes %s', (zone) => {
    expect(readLocalSettings({ LOCAL_NODE_TIMEZONE: zone }).nodeTimezone).toBe(zone);
  });

  it.each(['Mars/Base', 'Berlin', 'GMT+25'])('refuses %s in one line naming it', (zone) => {
    const reading = () => readLocalSettings({ LOCAL_NODE_TIMEZONE: zone });

    expect(reading).toThrow(LocalSettingsError);
    expect(reading).toThrow(
      `LOCAL_NODE_TIMEZONE must be an IANA time zone such as Europe/Berlin, got "${zone}"`,
    );
  });

  it("uses the machine's zone when unset", () => {
    expect(readLocalSettings({}).nodeTimezone).toBe(
      Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    );
  });
});
