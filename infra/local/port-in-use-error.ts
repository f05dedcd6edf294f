import { createServer } from 'node:net';

/** The variables that move the two servers `npm start` runs. */
export type PortSetting = 'PORT' | 'DYNAMODB_PORT';

const WHAT: Readonly<Record<PortSetting, string>> = {
  PORT: 'the local API',
  DYNAMODB_PORT: 'the embedded DynamoDB',
};

/** A port `npm start` needs is taken; the message names the setting that moves it. */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  constructor(
    readonly setting: PortSetting,
    readonly host: string,
    readonly port: number,
    /** A port that was free when the error was made; null when none was found near. */
    readonly suggestion: number | null,
    options?: { cause?: unknown },
  ) {
    const example = suggestion === null ? '' : `, e.g. ${setting}=${suggestion} npm start`;
    super(
      `${host}:${port} (${setting}, ${WHAT[setting]}) is already in use, perhaps by another ` +
        `npm start: stop it, or set ${setting} to a free port${example}`,
      options,
    );
  }
}

/**
 * For `.catch`: a listen on a busy port becomes a PortInUseError suggesting a port that is free
 * (the next one often is not: another npm start has its DYNAMODB_PORT there), other than the
 * ports in `reserved` (the other server's); anything else is rethrown.
 */
export const rethrowPortInUse =
  (setting: PortSetting, host: string, port: number, reserved: readonly number[] = []) =>
  async (error: unknown): Promise<never> => {
    if ((error as NodeJS.ErrnoException | null)?.code !== 'EADDRINUSE') throw error;
    const suggestion = await freePortAfter(host, port, reserved);
    throw new PortInUseError(setting, host, port, suggestion, { cause: error });
  };

/**
 * Throws PortInUseError when `port` cannot be listened on now. npm start asks before its slow
 * steps (a model's download, load and warm-up), so a taken port is said at once, not minutes
 * later; the listen itself still reports a port taken in between.
 */
export async function assertPortFree(
  setting: PortSetting,
  host: string,
  port: number,
  reserved: readonly number[] = [],
): Promise<void> {
  if (await canListen(host, port)) return;
  throw new PortInUseError(setting, host, port, await freePortAfter(host, port, reserved));
}

/** The first port after `port` that can be listened on now, within 100; null if none. */
export async function freePortAfter(
  host: string,
  port: number,
  reserved: readonly number[],
): Promise<number | null> {
  for (let candidate = port + 1; candidate <= Math.min(port + 100, 65_535); candidate += 1) {
    if (!reserved.includes(candidate) && (await canListen(host, candidate))) return candidate;
  }
  return null;
}

function canListen(host: string, port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
