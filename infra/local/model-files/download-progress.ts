import { formatBytes, formatDuration } from './human-units';

/** What a download reports as it goes; times are on the injected monotonic clock. */
export type DownloadEvent =
  | {
      readonly kind: 'started';
      readonly name: string;
      readonly url: string;
      readonly directory: string;
      readonly totalBytes: number | undefined;
      /** Bytes already in the partial file from an interrupted download. */
      readonly resumedBytes: number;
      readonly atMs: number;
    }
  | {
      readonly kind: 'progress';
      readonly name: string;
      /** Every byte of the file so far, the resumed ones included. */
      readonly receivedBytes: number;
      readonly totalBytes: number | undefined;
      readonly atMs: number;
    }
  | {
      readonly kind: 'retrying';
      readonly name: string;
      readonly reason: string;
      readonly atMs: number;
    }
  | {
      readonly kind: 'waiting';
      readonly name: string;
      readonly holder: string;
      readonly atMs: number;
    }
  | {
      readonly kind: 'finished';
      readonly name: string;
      readonly path: string;
      readonly bytes: number;
      readonly atMs: number;
    };

/** Where a download's progress goes. */
export interface ProgressSink {
  report(event: DownloadEvent): void;
}

/** Only what the sinks need of a stream (process.stderr, or a test's collector). */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** The plain sink's pace: a line every few seconds is enough for a log. */
const plainLineEveryMs = 5000;
/** The terminal bar's pace: smooth to a person, cheap for the terminal. */
const barRedrawEveryMs = 200;

/** A bar redrawn in place on a terminal; a line every few seconds otherwise (logs, CI). */
export function progressTo(stream: ProgressStream): ProgressSink {
  return stream.isTTY === true ? new TerminalProgress(stream) : new PlainProgress(stream);
}

/**
 * One download's rate and time left since it (re)started, and when it was last shown. A sink
 * keeps one per file, so two downloads reported to one sink (a language and a speech model at
 * once) never mix their figures.
 */
class Pace {
  constructor(
    private readonly startMs: number,
    private readonly startBytes: number,
    public lastShownMs: number,
  ) {}

  describe(receivedBytes: number, totalBytes: number | undefined, atMs: number): string[] {
    const elapsedMs = atMs - this.startMs;
    const rate = elapsedMs > 0 ? ((receivedBytes - this.startBytes) * 1000) / elapsedMs : 0;
    const parts = [
      totalBytes === undefined
        ? formatBytes(receivedBytes)
        : `${formatBytes(receivedBytes)} of ${formatBytes(totalBytes)} (${Math.floor((receivedBytes * 100) / totalBytes)}%)`,
    ];
    if (rate > 0) {
      parts.push(`${formatBytes(rate)}/s`);
      if (totalBytes !== undefined) {
        parts.push(`${formatDuration(((totalBytes - receivedBytes) * 1000) / rate)} left`);
      }
    }
    return parts;
  }
}

function announcement(event: Extract<DownloadEvent, { kind: 'started' }>): string {
  const size = event.totalBytes === undefined ? 'size unknown' : formatBytes(event.totalBytes);
  if (event.resumedBytes > 0) {
    return `resuming ${event.name} at ${formatBytes(event.resumedBytes)} of ${size}, into ${event.directory} (from ${event.url})`;
  }
  return `downloading ${event.name}, ${size}, once, into ${event.directory} (from ${event.url})`;
}

function otherLine(event: DownloadEvent): string | null {
  switch (event.kind) {
    case 'retrying':
      return `${event.name}: ${event.reason}; trying again`;
    case 'waiting':
      return `${event.name}: another download of it is running (${event.holder}); waiting for it`;
    case 'finished':
      return `${event.name}: ${formatBytes(event.bytes)} downloaded and checked (SHA-256), in ${event.path}`;
    default:
      return null;
  }
}

class PlainProgress implements ProgressSink {
  readonly #paces = new Map<string, Pace>();

  constructor(private readonly stream: ProgressStream) {}

  report(event: DownloadEvent): void {
    if (event.kind === 'started') {
      this.#paces.set(event.name, new Pace(event.atMs, event.resumedBytes, event.atMs));
      this.stream.write(`${announcement(event)}\n`);
      return;
    }
    if (event.kind === 'progress') {
      const pace = this.#paces.get(event.name);
      if (pace === undefined || event.atMs - pace.lastShownMs < plainLineEveryMs) return;
      pace.lastShownMs = event.atMs;
      const parts = pace.describe(event.receivedBytes, event.totalBytes, event.atMs);
      this.stream.write(`${event.name}: ${parts.join(', ')}\n`);
      return;
    }
    const line = otherLine(event);
    if (line !== null) this.stream.write(`${line}\n`);
  }
}

class TerminalProgress implements ProgressSink {
  readonly #paces = new Map<string, Pace>();
  #barShown = false;

  constructor(private readonly stream: ProgressStream) {}

  report(event: DownloadEvent): void {
    if (event.kind === 'started') {
      this.#endBar();
      this.#paces.set(
        event.name,
        new Pace(event.atMs, event.resumedBytes, Number.NEGATIVE_INFINITY),
      );
      this.stream.write(`${announcement(event)}\n`);
      return;
    }
    if (event.kind === 'progress') {
      const pace = this.#paces.get(event.name);
      if (pace === undefined) return;
      const done = event.totalBytes !== undefined && event.receivedBytes >= event.totalBytes;
      if (!done && event.atMs - pace.lastShownMs < barRedrawEveryMs) return;
      pace.lastShownMs = event.atMs;
      const parts = pace.describe(event.receivedBytes, event.totalBytes, event.atMs);
      const width = Math.max(
        10,
        Math.min(30, (this.stream.columns ?? 80) - 60 - event.name.length),
      );
      const filled =
        event.totalBytes === undefined
          ? 0
          : Math.round(
              (Math.min(event.receivedBytes, event.totalBytes) * width) / event.totalBytes,
            );
      const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
      // \r and clear-to-end: the bar is redrawn in place; its name tells two downloads apart.
      this.stream.write(`\r${event.name} ${bar} ${parts.join(', ')}\u001b[K`);
      this.#barShown = true;
      return;
    }
    this.#endBar();
    const line = otherLine(event);
    if (line !== null) this.stream.write(`${line}\n`);
  }

  #endBar(): void {
    if (this.#barShown) this.stream.write('\n');
    this.#barShown = false;
  }
}
