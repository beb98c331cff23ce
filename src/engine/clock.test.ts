import { describe, it, expect } from 'vitest';
import { Clock, Rng, NAME_ALPHABET, formatRfc3339, parseRfc3339 } from './clock';

describe('Clock', () => {
  it('orders events by (time, sequence) and advances now to each event', () => {
    const c = new Clock();
    const seen: string[] = [];
    c.schedule(20, () => seen.push(`b@${c.now()}`));
    c.schedule(10, () => seen.push(`a@${c.now()}`));
    c.schedule(20, () => seen.push(`c@${c.now()}`));
    c.schedule(10, () => c.schedule(0, () => seen.push(`a2@${c.now()}`)));
    c.runUntil(100);
    expect(seen).toEqual(['a@10', 'a2@10', 'b@20', 'c@20']);
    expect(c.now()).toBe(100);
  });

  it('step runs exactly one event; cancelled timers never run', () => {
    const c = new Clock();
    let n = 0;
    const t = c.schedule(5, () => (n += 100));
    c.schedule(7, () => (n += 1));
    t.cancel();
    expect(c.step()).toBe(true);
    expect(n).toBe(1);
    expect(c.now()).toBe(7);
    expect(c.step()).toBe(false);
  });

  it('runUntilQuiet stops when only background events remain', () => {
    const c = new Clock();
    const heartbeat = () => c.schedule(10_000, heartbeat, { background: true });
    heartbeat();
    let done = 0;
    c.schedule(25_000, () => done++);
    const r = c.runUntilQuiet();
    expect(r.quiet).toBe(true);
    expect(done).toBe(1);
    expect(c.now()).toBe(25_000);
  });

  it('runUntilQuiet is bounded in virtual time', () => {
    const c = new Clock();
    const loop = () => c.schedule(1000, loop);
    loop();
    const r = c.runUntilQuiet(60_000);
    expect(r.quiet).toBe(false);
    expect(r.now).toBeLessThanOrEqual(60_000);
  });

  it('every runs the same events, in the same order, as a callback that re-schedules itself', () => {
    // One scenario, two ways of writing its periodic loops: a self-rescheduling callback, and
    // `every`. Other events land on the same milliseconds before and after each tick.
    const scenario = (useEvery: boolean) => {
      const c = new Clock();
      const seen: string[] = [];
      const periodic = (name: string, ms: number, body: () => void): { cancel(): void } => {
        if (useEvery) return c.every(ms, body, { label: name });
        let stopped = false;
        let t = c.schedule(ms, function tick() {
          body();
          if (!stopped) t = c.schedule(ms, tick, { background: true });
        }, { background: true });
        return {
          cancel: () => {
            stopped = true;
            t.cancel();
          },
        };
      };
      c.schedule(1000, () => seen.push(`before@${c.now()}`));
      let n = 0;
      const a = periodic('a', 1000, () => {
        seen.push(`a@${c.now()}`);
        // Work scheduled by a tick at the time of its next tick comes after that next tick.
        c.schedule(1000, () => seen.push(`a-work@${c.now()}`));
        if (++n === 4) a.cancel();
      });
      periodic('b', 500, () => {
        seen.push(`b@${c.now()}`);
        if (c.now() === 1500) c.schedule(500, () => seen.push(`b-work@${c.now()}`));
      });
      c.schedule(2000, () => seen.push(`after@${c.now()}`));
      const steps: number[] = [];
      while (c.now() < 5000 && c.step()) steps.push(c.now());
      return { seen, steps, executed: c.executed, pending: c.pending(), peek: c.peekTime() };
    };
    const plain = scenario(false);
    expect(scenario(true)).toEqual(plain);
    // Work a tick schedules for the time of its next tick runs before that tick.
    expect(plain.seen.slice(0, 11)).toEqual(['b@500', 'before@1000', 'a@1000', 'b@1000', 'b@1500', 'after@2000', 'a-work@2000', 'a@2000', 'b-work@2000', 'b@2000', 'b@2500']);
  });

  it('a delay line runs the same events, in the same order, as one schedule per entry', () => {
    // Entries added at various times (some from inside other events and from the line's own
    // callback), with other events on the same milliseconds before and after each expiry.
    const scenario = (useLine: boolean) => {
      const c = new Clock();
      const seen: string[] = [];
      const line = c.delayLine<string>(300, (p) => {
        seen.push(`${p}@${c.now()}`);
        if (p === 'b') add('b-again');
      }, { label: 'ttl' });
      const add = (p: string): void => {
        if (useLine) line.add(p);
        else c.schedule(300, () => {
          seen.push(`${p}@${c.now()}`);
          if (p === 'b') add('b-again');
        }, { label: 'ttl', background: true });
      };
      add('a');
      c.schedule(300, () => seen.push(`x@${c.now()}`));
      c.schedule(100, () => {
        add('b');
        c.schedule(300, () => seen.push(`y@${c.now()}`));
        add('c');
      });
      c.schedule(400, () => seen.push(`z@${c.now()}`));
      const pendingAt: number[] = [];
      const steps: number[] = [];
      while (c.step()) {
        steps.push(c.now());
        pendingAt.push(c.pending());
      }
      return { seen, steps, pendingAt, executed: c.executed, quiet: c.runUntilQuiet() };
    };
    const plain = scenario(false);
    expect(scenario(true)).toEqual(plain);
    // z was queued (at time 0) before b, y and c (at 100): it runs first at 400.
    expect(plain.seen).toEqual(['a@300', 'x@300', 'z@400', 'b@400', 'y@400', 'c@400', 'b-again@700']);
  });

  it('every stops when cancelled from inside its callback or when the callback throws', () => {
    const c = new Clock();
    let runs = 0;
    const t = c.every(100, () => {
      runs++;
      if (runs === 3) t.cancel();
    });
    c.runUntil(1000);
    expect(runs).toBe(3);
    let bad = 0;
    c.every(100, () => {
      bad++;
      throw new Error('engine bug');
    });
    expect(() => c.runUntil(2000)).toThrow('engine bug');
    c.runUntil(3000);
    expect(bad).toBe(1);
    expect(c.pending()).toBe(0);
    expect(() => c.every(0, () => {})).toThrow(RangeError);
  });

  it('prints RFC 3339 timestamps without Date', () => {
    expect(formatRfc3339(0)).toBe('1970-01-01T00:00:00Z');
    expect(formatRfc3339(951782400000)).toBe('2000-02-29T00:00:00Z');
    expect(new Clock().rfc3339(61_500)).toBe('2026-01-05T06:01:01Z');
    expect(new Clock().rfc3339Micro(61_500)).toBe('2026-01-05T06:01:01.500000Z');
    for (const ms of [0, 951782400000, 1767592800000, 4102444799000]) expect(parseRfc3339(formatRfc3339(ms))).toBe(ms);
  });

  it('rfc3339Micro prints what formatRfc3339 prints with microseconds, across seconds and for any time asked', () => {
    const c = new Clock();
    for (const ms of [61_500, 61_000, 61_999, 62_001, 61_007, 3_599_999, 3_600_000, 61_000.5, 0]) {
      expect(c.rfc3339Micro(ms)).toBe(formatRfc3339(c.epochMs + ms, true));
      expect(c.rfc3339(ms)).toBe(formatRfc3339(c.epochMs + Math.floor(ms / 1000) * 1000));
    }
  });
});

describe('Rng', () => {
  it('is a pure function of its seed', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const draws = (r: Rng) => [r.int(0, 1000), r.nameSuffix(), r.uuid(), r.float()];
    expect(draws(a)).toEqual(draws(b));
    expect(draws(new Rng(43))).not.toEqual(draws(new Rng(42)));
  });

  it('name suffixes use the apimachinery alphabet (no vowels, no 0/1/3)', () => {
    const r = new Rng(1);
    const s = Array.from({ length: 200 }, () => r.nameSuffix()).join('');
    for (const ch of s) expect(NAME_ALPHABET).toContain(ch);
    expect(new Set(s).size).toBe(27);
  });
});
