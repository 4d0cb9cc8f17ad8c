/**
 * Embedder: turns texts into vectors, so filter_tools can rank tools by meaning as well as by
 * words (meta-tools blends the two; docs/discovery.md). A plugin provides `embedder` when the
 * operator names a model in config.yaml (`embedder:`); without one, ranking is lexical.
 *
 * Vectors of one embedder all have its `dimension` and are comparable by cosine; vectors of
 * different `modelId`s never are, so whatever is cached is keyed by it. A failure is an
 * EmbedderError whose `reason` says what went wrong; the caller falls back to lexical ranking
 * and says so, it never fails the search.
 */
import { SwitchboardError } from '../errors.js';

/** Why an embedding could not be had: stable, reported in filter_tools' `ranking`. */
export type EmbedderFailure =
  /** The endpoint could not be reached (connection refused, DNS, reset). */
  | 'unreachable'
  /** No answer within the configured timeout. */
  | 'timeout'
  /** The endpoint answered with an HTTP error status (its status is in the message). */
  | 'http-status'
  /** The answer was not the embeddings wire format, or vectors had the wrong count or dimension. */
  | 'bad-response'
  /** The outbound policy refused the endpoint's address (aggregator.network.allow). */
  | 'refused'
  /** A request or answer beyond the configured size caps. */
  | 'too-large'
  /** The local model file is missing, unreadable, malformed or beyond its limits. */
  | 'model-invalid'
  /** The model is still loading. */
  | 'not-ready';

export class EmbedderError extends SwitchboardError {
  constructor(
    readonly reason: EmbedderFailure,
    message: string,
  ) {
    super('EMBEDDER_UNAVAILABLE', message, { reason });
  }
}

export interface EmbedOptions {
  /** Cancels the request (a remote call); the promise rejects with an EmbedderError. */
  signal?: AbortSignal;
}

export interface Embedder {
  /** Names the model and whatever changes its vectors (provider, model, dimension): cached vectors are keyed by it. */
  readonly modelId: string;
  /** 'local': in process, no I/O per call; 'remote': an HTTP request per batch (its latency is reported apart). */
  readonly locality: 'local' | 'remote';
  /** Most texts one embed() call takes; callers split larger lists. */
  readonly maxBatch: number;
  /** How long a search waits for its query's vector before it ranks without it. */
  readonly queryTimeoutMs: number;
  /**
   * One vector per text, in order, all of one dimension (a remote model's is learnt from its
   * first answer). Not necessarily of unit length. Rejects with EmbedderError.
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
}
