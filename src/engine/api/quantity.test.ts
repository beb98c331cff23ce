import { describe, it, expect } from 'vitest';
import { parseQuantity, formatQuantity, canonicalQuantity, isValidQuantity, parseQuantityFull, QUANTITY_FORMAT_ERROR, QUANTITY_SUFFIX_ERROR } from './quantity';
import { ApiError } from './errors';

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e.message;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('parseQuantity (apimachinery resource/quantity.go ParseQuantity)', () => {
  it('decimal SI suffixes: cpu in cores, memory in bytes', () => {
    expect(parseQuantity('500m')).toBe(0.5);
    expect(parseQuantity('100m')).toBe(0.1);
    expect(parseQuantity('2')).toBe(2);
    expect(parseQuantity('1.5')).toBe(1.5);
    expect(parseQuantity('1k')).toBe(1000);
    expect(parseQuantity('1M')).toBe(1e6);
    expect(parseQuantity('1G')).toBe(1e9);
    expect(parseQuantity('250n')).toBeCloseTo(2.5e-7, 15);
  });

  it('binary SI suffixes (Ki, Mi, Gi, ...)', () => {
    expect(parseQuantity('128Mi')).toBe(134217728);
    expect(parseQuantity('1Gi')).toBe(1073741824);
    expect(parseQuantity('64Ki')).toBe(65536);
    expect(parseQuantity('1.5Gi')).toBe(1610612736);
  });

  it('exponents, signs, numbers and the special 0', () => {
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity('1E3')).toBe(1000);
    expect(parseQuantity('5e-3')).toBe(0.005);
    expect(parseQuantity('-1')).toBe(-1);
    expect(parseQuantity('+2')).toBe(2);
    expect(parseQuantity('0')).toBe(0);
    expect(parseQuantity(0.25)).toBe(0.25);
    expect(parseQuantityFull('1E').value).toBe(1e18); // E alone is exa
  });

  it('malformed strings give ErrFormatWrong, unknown suffixes ErrSuffix', () => {
    // quantity.go: ErrFormatWrong = "quantities must match the regular expression '...'"
    expect(QUANTITY_FORMAT_ERROR).toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    for (const bad of ['', 'abc', '1.2.3', '1Gb', ' 1', '1 ', '12MiB']) expect(message(() => parseQuantity(bad))).toBe(QUANTITY_FORMAT_ERROR);
    for (const bad of ['1K', '5mi', '1e', '3Mi3']) expect(message(() => parseQuantity(bad))).toBe(QUANTITY_SUFFIX_ERROR);
    expect(isValidQuantity('1Gi')).toBe(true);
    expect(isValidQuantity('1GB')).toBe(false);
    expect(isValidQuantity(undefined)).toBe(false);
  });
});

describe('formatQuantity / canonicalQuantity (Quantity.String, CanonicalizeBytes)', () => {
  it('DecimalSI: largest exponent (multiple of 3) with an integer mantissa', () => {
    expect(formatQuantity(0.5)).toBe('500m');
    expect(formatQuantity(1.5)).toBe('1500m');
    expect(formatQuantity(2)).toBe('2');
    expect(formatQuantity(1500)).toBe('1500');
    expect(formatQuantity(2000)).toBe('2k');
    expect(formatQuantity(0)).toBe('0');
    expect(formatQuantity(-0.1)).toBe('-100m');
  });

  it('BinarySI: largest power of 1024; below 1024 or fractional falls back to DecimalSI', () => {
    expect(formatQuantity(134217728, 'BinarySI')).toBe('128Mi');
    expect(formatQuantity(1610612736, 'BinarySI')).toBe('1536Mi');
    expect(formatQuantity(512, 'BinarySI')).toBe('512');
  });

  it('keeps the format the quantity was written in', () => {
    // This is what validation prints: `must be less than or equal to cpu limit of 500m`.
    expect(canonicalQuantity('0.5')).toBe('500m');
    expect(canonicalQuantity('500m')).toBe('500m');
    expect(canonicalQuantity('2000m')).toBe('2');
    expect(canonicalQuantity('1024Mi')).toBe('1Gi');
    expect(canonicalQuantity('1000Mi')).toBe('1000Mi');
    expect(canonicalQuantity('1G')).toBe('1G');
    expect(canonicalQuantity('1e3')).toBe('1e3');
    expect(canonicalQuantity(1)).toBe('1');
  });
});
