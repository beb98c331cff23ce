/** Go value formatting, as observed in kubectl 1.32 output (jsonpath, custom-columns, errors, -o json). */
import { describe, expect, it } from 'vitest';
import { goFormatFloat, goFormatNumber, goJson, goQuote, goRuneU, goSharpV, goSprint, goTypeName } from './gofmt';

describe('numbers', () => {
  it('%v of float64: shortest digits, exponent below 1e-4 or from 1e6', () => {
    expect([1234567.5, 123456.5, 0.0001, 1e-5, -2.5, 1e300, 1e22, 1e-7, 0.25].map(goFormatFloat)).toEqual([
      '1.2345675e+06',
      '123456.5',
      '0.0001',
      '1e-05',
      '-2.5',
      '1e+300',
      '1e+22',
      '1e-07',
      '0.25',
    ]);
  });
  it('integral values decode as int64 and print in full', () => {
    expect(goFormatNumber(2000001000)).toBe('2000001000');
    expect(goFormatNumber(-7)).toBe('-7');
    expect(goFormatNumber(1e22)).toBe('1e+22');
  });
});

describe('fmt', () => {
  it('%v of maps, slices, nil', () => {
    expect(goSprint({ b: [1, 'x'], a: { c: null } })).toBe('map[a:map[c:<nil>] b:[1 x]]');
    expect(goSprint({})).toBe('map[]');
    expect(goSprint([])).toBe('[]');
  });
  it('%#v of a decoded object', () => {
    expect(goSharpV({ b: [true, null], a: 'q"\t\u00e9\u0001\u2028\x1b' })).toBe('map[string]interface {}{"a":"q\\"\\té\\x01\\u2028\\x1b", "b":[]interface {}{true, interface {}(nil)}}');
  });
  it('strconv.Quote and %#U', () => {
    expect(goQuote('a\\b"\n😀\u00a0')).toBe('"a\\\\b\\"\\n😀\\u00a0"');
    expect(goRuneU(0x23)).toBe("U+0023 '#'");
    expect(goRuneU(0x09)).toBe('U+0009');
  });
  it('type names', () => {
    expect([1, 1.5, 's', true, [], {}, null].map(goTypeName)).toEqual(['int64', 'float64', 'string', 'bool', '[]interface {}', 'map[string]interface {}', 'interface {}']);
  });
});

describe('encoding/json', () => {
  it('sorts keys and escapes <>& U+2028 and control characters', () => {
    expect(goJson({ z: '<b>&</b>', a: '\u2028\u0001\x1b\b\f', m: 1e-7, n: [] })).toBe('{"a":"\\u2028\\u0001\\u001b\\b\\f","m":1e-7,"n":[],"z":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"}');
  });
  it('MarshalIndent keeps empty containers compact', () => {
    expect(goJson({ a: {}, b: [1, { c: [] }] }, '    ')).toBe('{\n    "a": {},\n    "b": [\n        1,\n        {\n            "c": []\n        }\n    ]\n}');
  });
});
