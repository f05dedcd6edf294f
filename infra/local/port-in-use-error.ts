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
    options?: { cause?: unknown },
  ) {
    super(
      `${host}:${port} (${setting}, ${WHAT[setting]}) is already in use, perhaps by another ` +
        `npm start: stop it, or set ${setting} to a free port, e.g. ${setting}=${port + 1} npm start`,
      options,
    );
  }
}

/** For `.catch`: a listen on a busy port becomes a PortInUseError; anything else is rethrown. */
export const rethrowPortInUse =
  (setting: PortSetting, host: string, port: number) =>
  (error: unknown): never => {
    if ((error as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE')
      throw new PortInUseError(setting, host, port, { cause: error });
    throw error;
  };
