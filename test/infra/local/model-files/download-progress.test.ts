import { describe, expect, it } from 'vitest';
import { type DownloadEvent, progressTo } from '../../../../infra/local/model-files';

const name = 'Qwen3-1.7B-Q4_K_M.gguf';
const total = 1_107_409_472;

function collector(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, columns: 100, write: (text: string) => written.push(text) } };
}

const started = (atMs: number, resumedBytes = 0): Extract<DownloadEvent, { kind: 'started' }> => ({
  kind: 'started',
  name,
  url: 'https://huggingface.co/unsloth/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf',
  directory: '/home/ada/.cache/jcc-serverless/models/unsloth/Qwen3-1.7B-GGUF',
  totalBytes: total,
  resumedBytes,
  atMs,
});
const progress = (atMs: number, receivedBytes: number): DownloadEvent => ({
  kind: 'progress',
  name,
  receivedBytes,
  totalBytes: total,
  atMs,
});

/** 10 MB a second for `seconds`, a chunk every 100 ms. */
function steadyDownload(seconds: number): DownloadEvent[] {
  const events: DownloadEvent[] = [started(0)];
  for (let atMs = 100; atMs <= seconds * 1000; atMs += 100)
    events.push(progress(atMs, atMs * 10_000));
  return events;
}

describe('progressTo', () => {
  it('writes the announcement, then one plain line every 5 s with bytes, rate and time left, when not on a terminal', () => {
    // Prepare
    const { written, stream } = collector(false);
    const sink = progressTo(stream);

    // Act
    for (const event of steadyDownload(12)) sink.report(event);
    sink.report({ kind: 'finished', name, path: '/cache/q.gguf', bytes: total, atMs: 110_000 });

    // Assess
    expect(written).toEqual([
      `downloading ${name}, 1.1 GB, once, into /home/ada/.cache/jcc-serverless/models/unsloth/Qwen3-1.7B-GGUF (from https://huggingface.co/unsloth/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf)\n`,
      `${name}: 50.0 MB of 1.1 GB (4%), 10.0 MB/s, 1 min 46 s left\n`,
      `${name}: 100 MB of 1.1 GB (9%), 10.0 MB/s, 1 min 41 s left\n`,
      `${name}: 1.1 GB downloaded and checked (SHA-256), in /cache/q.gguf\n`,
    ]);
  });

  it('says where a resumed download starts again, and measures its rate from there', () => {
    // Prepare
    const { written, stream } = collector(false);
    const sink = progressTo(stream);

    // Act
    sink.report(started(60_000, 500_000_000));
    sink.report(progress(65_000, 550_000_000));

    // Assess
    expect(written).toEqual([
      `resuming ${name} at 500 MB of 1.1 GB, into /home/ada/.cache/jcc-serverless/models/unsloth/Qwen3-1.7B-GGUF (from https://huggingface.co/unsloth/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf)\n`,
      `${name}: 550 MB of 1.1 GB (49%), 10.0 MB/s, 56 s left\n`,
    ]);
  });

  it('redraws one bar in place on a terminal, at most five times a second, and ends its line before the next message', () => {
    // Prepare
    const { written, stream } = collector(true);
    const sink = progressTo(stream);

    // Act
    for (const event of steadyDownload(1)) sink.report(event);
    sink.report({ kind: 'retrying', name, reason: 'the connection broke', atMs: 1100 });

    // Assess
    const bars = written.filter((text) => text.startsWith('\r'));
    expect(bars).toHaveLength(5);
    expect(bars.at(-1)).toBe(
      `\r${name} [${'-'.repeat(18)}] 9.0 MB of 1.1 GB (0%), 10.0 MB/s, 1 min 50 s left\u001b[K`,
    );
    expect(written.slice(-2)).toEqual(['\n', `${name}: the connection broke; trying again\n`]);
  });

  it('keeps the figures of two downloads reported to one sink apart', () => {
    // Prepare
    const { written, stream } = collector(false);
    const sink = progressTo(stream);
    const speech = 'ggml-base.en-q5_1.bin';

    // Act: the language model at 10 MB/s, the speech model at 1 MB/s, interleaved.
    sink.report(started(0));
    sink.report({ ...started(0), name: speech, totalBytes: 59_721_011 });
    sink.report(progress(5000, 50_000_000));
    sink.report({
      kind: 'progress',
      name: speech,
      receivedBytes: 5_000_000,
      totalBytes: 59_721_011,
      atMs: 5000,
    });

    // Assess
    expect(written.slice(2)).toEqual([
      `${name}: 50.0 MB of 1.1 GB (4%), 10.0 MB/s, 1 min 46 s left\n`,
      `${speech}: 5.0 MB of 59.7 MB (8%), 1.0 MB/s, 55 s left\n`,
    ]);
  });
});
