/**
 * The kubelet's image manager: decide from `imagePullPolicy` whether to pull, pull through
 * containerd one image at a time, back off after failures, and say so in events.
 *
 * Mirrors pkg/kubelet/images/image_manager.go (`EnsureImageExists`, `imagePullPrecheck`,
 * `evalCRIPullErr`), pkg/kubelet/images/puller.go (`serialImagePuller`: with
 * `serializeImagePulls: true`, the default, pulls run one after another, and the "including
 * waiting" time of the Pulled event counts the queue), pkg/kubelet/images/types.go (the waiting
 * reasons `ErrImagePull`, `ImagePullBackOff`, `ErrImageNeverPull`, `InvalidImageName`), and
 * pkg/kubelet/events/event.go (reasons `Pulling`, `Pulled`, `Failed`, `BackOff`,
 * `ErrImageNeverPull`, `InspectFailed`).
 *
 * Events (for a container's object reference):
 * - `Pulling` `Pulling image "x"`;
 * - `Pulled` `Successfully pulled image "x" in 1.2s (1.5s including waiting). Image size: N bytes.`;
 * - `Pulled` `Container image "x" already present on machine`;
 * - Warning `Failed` `Failed to pull image "x": rpc error: code = NotFound desc = ...`;
 * - `BackOff` `Back-off pulling image "x"` (Normal, as the kubelet records it);
 * - Warning `ErrImageNeverPull` `Container image "x" is not present with pull policy of Never`;
 * - Warning `InspectFailed` `Failed to apply default image tag "X": couldn't parse image name "X": ...`.
 *
 * Units: virtual ms.
 */
import type { Clock } from '../../clock';
import { ImageReferenceError, parseImageRef } from '../registry';
import type { Containerd, PullResult } from '../runtime';
import { CriError } from '../runtime';
import { Backoff, goDuration } from './util';

/** Initial image pull backoff. Source: pkg/kubelet/kubelet.go (`backOffPeriod = 10s`). */
export const IMAGE_BACKOFF_INITIAL_MS = 10_000;
/** Cap of the image pull backoff. Source: pkg/kubelet/kubelet.go (`MaxContainerBackOff = 300s`). */
export const IMAGE_BACKOFF_MAX_MS = 300_000;

/** Outcome of `ensureImageExists`. */
export type EnsureImageResult =
  | { ok: true; imageRef: string }
  | {
      ok: false;
      /** The container's waiting reason: ErrImagePull, ImagePullBackOff, ErrImageNeverPull, InvalidImageName. */
      reason: string;
      /** The waiting message. */
      message: string;
      /** For ImagePullBackOff: when the backoff ends (virtual ms). */
      backoffUntil?: number;
    };

/** How the image manager records an event (Normal/Warning, reason, message). */
export type ImageEventFn = (type: 'Normal' | 'Warning', reason: string, message: string) => void;

interface QueuedPull {
  ref: string;
  credentials: readonly string[];
  cb: (r: PullResult, waitedFromMs: number) => void;
  enqueuedAt: number;
}

/**
 * One kubelet's image manager. Its memory (backoff, queue) dies with the kubelet process; the
 * images stay in containerd.
 */
export class ImageManager {
  private readonly backoff: Backoff;
  private readonly prevPullErr = new Map<string, string>();
  private queue: QueuedPull[] = [];
  private busy = false;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly cri: () => Containerd,
    private readonly serialize: boolean,
  ) {
    this.backoff = new Backoff(IMAGE_BACKOFF_INITIAL_MS, IMAGE_BACKOFF_MAX_MS, () => clock.now());
  }

  /** The process died: drop the queue (callbacks are never called). */
  stop(): void {
    this.stopped = true;
    this.queue = [];
  }

  /**
   * `EnsureImageExists` for one container of pod `podUid`. Calls `done` once (synchronously when
   * no pull is needed, otherwise when the pull finishes). `events` records the image events.
   */
  ensureImageExists(
    podUid: string,
    image: string,
    pullPolicy: string,
    credentials: readonly string[],
    events: ImageEventFn,
    done: (r: EnsureImageResult) => void,
  ): void {
    // applyDefaultImageTag: an unparsable reference is InvalidImageName.
    let normalized: string;
    let withTag = image;
    try {
      normalized = parseImageRef(image).ref;
      if (!/[:@]/.test(image.slice(image.lastIndexOf('/') + 1))) withTag = `${image}:latest`;
    } catch (e) {
      if (!(e instanceof ImageReferenceError)) throw e;
      const msg = `Failed to apply default image tag "${image}": couldn't parse image name "${image}": ${e.message}`;
      events('Warning', 'InspectFailed', msg);
      done({ ok: false, reason: 'InvalidImageName', message: msg });
      return;
    }
    const cri = this.cri();
    if (pullPolicy !== 'Always') {
      const present = cri.imageStatus(normalized);
      if (present) {
        events('Normal', 'Pulled', `Container image "${image}" already present on machine`);
        done({ ok: true, imageRef: present.id });
        return;
      }
      if (pullPolicy === 'Never') {
        const msg = `Container image "${image}" is not present with pull policy of Never`;
        events('Warning', 'ErrImageNeverPull', msg);
        done({ ok: false, reason: 'ErrImageNeverPull', message: msg });
        return;
      }
    }
    const key = `${podUid}_${withTag}`;
    const now = this.clock.now();
    if (this.backoff.isInBackOffSinceUpdate(key, now)) {
      let msg = `Back-off pulling image "${withTag}"`;
      events('Normal', 'BackOff', msg);
      const prev = this.prevPullErr.get(key);
      if (prev) msg = `${msg}: ${prev}`;
      done({ ok: false, reason: 'ImagePullBackOff', message: msg, backoffUntil: this.backoffUntil(key) });
      return;
    }
    this.prevPullErr.delete(key);
    events('Normal', 'Pulling', `Pulling image "${withTag}"`);
    const started = now;
    this.enqueue(withTag, credentials, (r) => {
      if (this.stopped) return;
      if (!r.ok) {
        const err = r.error.message;
        events('Warning', 'Failed', `Failed to pull image "${withTag}": ${err}`);
        this.backoff.next(key, this.clock.now());
        this.prevPullErr.set(key, `ErrImagePull: ${err}`);
        done({ ok: false, reason: 'ErrImagePull', message: err });
        return;
      }
      const total = this.clock.now() - started;
      events('Normal', 'Pulled', `Successfully pulled image "${withTag}" in ${goDuration(r.durationMs)} (${goDuration(total)} including waiting). Image size: ${r.image.size} bytes.`);
      this.backoff.gc();
      done({ ok: true, imageRef: r.imageRef });
    });
  }

  private backoffUntil(key: string): number | undefined {
    return this.backoff.sinceUpdateExpiry(key);
  }

  private enqueue(ref: string, credentials: readonly string[], cb: (r: PullResult, waitedFromMs: number) => void): void {
    this.queue.push({ ref, credentials, cb, enqueuedAt: this.clock.now() });
    if (!this.serialize || !this.busy) this.pump();
  }

  private pump(): void {
    if (this.stopped) return;
    const next = this.queue.shift();
    if (!next) {
      this.busy = false;
      return;
    }
    this.busy = true;
    let pending;
    try {
      pending = this.cri().pullImage(next.ref, undefined, next.credentials);
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
      const err = e;
      // The failure is reported from a clock event, like a pull that failed on the wire.
      this.clock.schedule(0, () => {
        next.cb({ ok: false, error: err, durationMs: 0 }, next.enqueuedAt);
        this.pump();
      }, { label: 'kubelet: image pull failed' });
      return;
    }
    pending.then((r) => {
      next.cb(r, next.enqueuedAt);
      if (this.serialize) this.pump();
    });
    if (!this.serialize) this.pump();
  }
}
