/**
 * HumanDuration / ShortHumanDuration: the cases of apimachinery's own duration_test.go
 * (TestHumanDuration, TestHumanDurationBoundaries, TestShortHumanDurationBoundaries), in ms.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_EPOCH_MS } from '../../engine/clock';
import { humanDuration, shortHumanDuration, translateTimestampSince } from './duration';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration', () => {
  const cases: [number, string][] = [
    [S, '1s'],
    [70 * S, '70s'],
    [190 * S, '3m10s'],
    [70 * M, '70m'],
    [47 * H, '47h'],
    [49 * H, '2d1h'],
    [(8 * 24 + 2) * H, '8d'],
    [367 * D, '367d'],
    [(365 * 2 * 24 + 25) * H, '2y1d'],
    [(365 * 8 * 24 + 2) * H, '8y'],
    // boundaries
    [-2 * S, '<invalid>'],
    [-2 * S + 1, '0s'],
    [0, '0s'],
    [S - 1, '0s'],
    [2 * M - 1, '119s'],
    [2 * M, '2m'],
    [2 * M + S, '2m1s'],
    [10 * M - 1, '9m59s'],
    [10 * M, '10m'],
    [10 * M + S, '10m'],
    [3 * H - 1, '179m'],
    [3 * H, '3h'],
    [3 * H + M, '3h1m'],
    [8 * H - 1, '7h59m'],
    [8 * H, '8h'],
    [8 * H + 59 * M, '8h'],
    [2 * D - 1, '47h'],
    [2 * D, '2d'],
    [2 * D + H, '2d1h'],
    [8 * D - 1, '7d23h'],
    [8 * D, '8d'],
    [8 * D + 23 * H, '8d'],
    [2 * 365 * D - 1, '729d'],
    [2 * 365 * D, '2y'],
    [2 * 365 * D + 23 * H, '2y'],
    [2 * 365 * D + 23 * H + 59 * M, '2y'],
    [2 * 365 * D + D - 1, '2y'],
    [2 * 365 * D + D, '2y1d'],
    [3 * 365 * D, '3y'],
    [7 * 365 * D, '7y'],
    [8 * 365 * D - 1, '7y364d'],
    [8 * 365 * D, '8y'],
    [8 * 365 * D + 364 * D, '8y'],
    [9 * 365 * D, '9y'],
  ];
  for (const [ms, want] of cases) it(`${ms} ms -> ${want}`, () => expect(humanDuration(ms)).toBe(want));
});

describe('shortHumanDuration', () => {
  const cases: [number, string][] = [
    [-2 * S, '<invalid>'],
    [-2 * S + 1, '0s'],
    [0, '0s'],
    [S - 1, '0s'],
    [S, '1s'],
    [2 * S - 1, '1s'],
    [M - 1, '59s'],
    [M, '1m'],
    [2 * M - 1, '1m'],
    [H - 1, '59m'],
    [H, '1h'],
    [2 * H - 1, '1h'],
    [D - 1, '23h'],
    [D, '1d'],
    [2 * D - 1, '1d'],
    [365 * D - 1, '364d'],
    [365 * D, '1y'],
    [2 * 365 * D - 1, '1y'],
    [2 * 365 * D, '2y'],
  ];
  for (const [ms, want] of cases) it(`${ms} ms -> ${want}`, () => expect(shortHumanDuration(ms)).toBe(want));
});

describe('translateTimestampSince', () => {
  const epoch = DEFAULT_EPOCH_MS; // 2026-01-05T06:00:00Z
  it('ages an RFC 3339 timestamp against virtual now', () => {
    expect(translateTimestampSince('2026-01-05T06:00:00Z', 41_000, epoch)).toBe('41s');
    expect(translateTimestampSince('2026-01-05T05:00:00Z', 0, epoch)).toBe('60m');
    expect(translateTimestampSince('2026-01-05T06:00:00.500000Z', 2_400, epoch)).toBe('1s');
  });
  it('prints <unknown> for a missing (zero) timestamp and <invalid> for the future', () => {
    expect(translateTimestampSince(undefined, 0, epoch)).toBe('<unknown>');
    expect(translateTimestampSince(null, 0, epoch)).toBe('<unknown>');
    expect(translateTimestampSince('', 0, epoch)).toBe('<unknown>');
    expect(translateTimestampSince('2026-01-05T06:00:10Z', 0, epoch)).toBe('<invalid>');
    expect(translateTimestampSince('2026-01-05T06:00:01Z', 0, epoch)).toBe('0s');
  });
});
