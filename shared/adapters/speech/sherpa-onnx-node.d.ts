// sherpa-onnx-node 1.13.8 ships no type declarations (its types.js holds JSDoc only); this
// declares the part of its offline recognizer the recognizer process uses (non-streaming-asr.js).
declare module 'sherpa-onnx-node' {
  interface Waveform {
    samples: Float32Array;
    sampleRate: number;
  }

  class OfflineStream {
    acceptWaveform(wave: Waveform): void;
  }

  class OfflineRecognizer {
    /** Loads the models the config names off the event loop; rejects when one does not load. */
    static createAsync(config: unknown): Promise<OfflineRecognizer>;
    createStream(): OfflineStream;
    /** Recognizes the stream's samples off the event loop; resolves with the result. */
    decodeAsync(stream: OfflineStream): Promise<{ text: string }>;
  }

  const sherpaOnnx: { OfflineRecognizer: typeof OfflineRecognizer };
  export default sherpaOnnx;
}
