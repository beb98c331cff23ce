/**
 * The JSONPath engine. Cases from client-go's own jsonpath_test.go (on JSON input) and
 * behaviours of the kubectl 1.32 binary (captured; more in golden.ts).
 */
import { describe, expect, it } from 'vitest';
import { executeJsonPath, findResults, JsonPathError, parseJsonPath } from './jsonpath';

const run = (template: string, data: unknown, allowMissingKeys = false) => executeJsonPath(template, data, { allowMissingKeys });
const fails = (template: string, data: unknown, allowMissingKeys = false): string => {
  try {
    run(template, data, allowMissingKeys);
  } catch (e) {
    if (e instanceof JsonPathError) return e.message;
    throw e;
  }
  return 'nil';
};

const NODES = {
  kind: 'List',
  items: [
    {
      kind: 'None',
      metadata: { name: '127.0.0.1', labels: { 'kubernetes.io/hostname': '127.0.0.1' } },
      status: { capacity: { cpu: '4' }, ready: true, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.1' }] },
    },
    {
      kind: 'None',
      metadata: { name: '127.0.0.2', labels: { 'kubernetes.io/hostname': '127.0.0.2' } },
      status: {
        capacity: { cpu: '8' },
        ready: false,
        addresses: [
          { type: 'LegacyHostIP', address: '127.0.0.2' },
          { type: 'another', address: '127.0.0.3' },
        ],
      },
    },
  ],
  users: [
    { name: 'myself', user: {} },
    { name: 'e2e', user: { username: 'admin', password: 'secret' } },
  ],
};

describe('client-go TestKubernetes', () => {
  it.each([
    ['{range .items[*]}{.metadata.name}, {end}{.kind}', '127.0.0.1, 127.0.0.2, List'],
    ['{range .items[*]}{.metadata.name}{"\\t"}{end}', '127.0.0.1\t127.0.0.2\t'],
    ['{.items[*].status.addresses[*].address}', '127.0.0.1 127.0.0.2 127.0.0.3'],
    ['{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}', '127.0.0.1, 127.0.0.2, 127.0.0.3, '],
    ['{.items[*].metadata.name}', '127.0.0.1 127.0.0.2'],
    ["{.items[*]['metadata.name', 'status.capacity']}", '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}'],
    ['{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}', '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] '],
    ['{.users[?(@.name=="e2e")].user.password}', 'secret'],
    ['{.items[0].metadata.labels.kubernetes\\.io/hostname}', '127.0.0.1'],
    ['{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}', 'None'],
    ['{.items[?(@..ready==true)].metadata.name}', '127.0.0.1'],
    ['{..name}', '127.0.0.1 127.0.0.2 myself e2e'],
  ])('%s', (template, want) => expect(run(template, NODES)).toBe(want));
});

describe('client-go TestJSONInput, TestEmptyRange, TestNestedRanges, filters', () => {
  const points = [
    { id: 'i1', x: 4, y: -5 },
    { id: 'i2', x: -2, y: -5, z: 1 },
    { id: 'i3', x: 8, y: 3 },
    { id: 'i4', x: -6, y: -1 },
    { id: 'i5', x: 0, y: 2, z: 1 },
    { id: 'i6', x: 1, y: 4 },
  ];
  it('exists filter and bracket key', () => {
    expect(run('{[?(@.z)].id}', points)).toBe('i2 i5');
    expect(run("{[0]['id']}", points)).toBe('i1');
    expect(run('{[?(@.x<1)].id}', points)).toBe('i2 i4 i5');
  });
  it('empty ranges print nothing', () => {
    expect(run('{range .items[*]}{.metadata.name}{end}', { items: [] }, true)).toBe('');
    expect(run('{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}', { items: [] }, true)).toBe('');
  });
  const pods = {
    items: [
      { metadata: { name: 'pod1' }, spec: { containers: [{ name: 'foo', another: [{ name: 'value1' }, { name: 'value2' }] }, { name: 'bar', another: [{ name: 'value1' }, { name: 'value2' }] }] } },
      { metadata: { name: 'pod2' }, spec: { containers: [{ name: 'baz', another: [{ name: 'value1' }, { name: 'value2' }] }] } },
    ],
  };
  it('nested ranges', () => {
    expect(run('{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}', pods)).toBe('pod1:foo,bar,+pod2:baz,+');
    expect(run('{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}', pods)).toBe(
      'pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#',
    );
    expect(run('{range .items[*]}{.metadata.name}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\n"}{end}', pods)).toBe(
      'pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n',
    );
  });
  it('filters tolerate missing keys when allowed, fail otherwise', () => {
    const list = { items: [{ metadata: { name: 'pod1', annotations: { color: 'blue' } } }, { metadata: { name: 'pod2' } }, { metadata: { name: 'pod4', annotations: { color: 'blue' } } }] };
    expect(run('{.items[?(@.metadata.annotations.color=="blue")].metadata.name}', list, true)).toBe('pod1 pod4');
    expect(fails('{.items[?(@.metadata.annotations.color=="blue")].metadata.name}', list)).toBe('annotations is not found');
    expect(run('{range .items[?(.metadata.name=="pod2")]}{.metadata.name}{" found\\n"}{end}', list, true)).toBe('pod2 found\n');
  });
});

describe('client-go TestNegativeIndex and TestStep', () => {
  const pod = { spec: { containers: ['fake0', 'fake1', 'fake2', 'fake3'].map((name) => ({ name })) } };
  const six = { spec: { containers: ['fake0', 'fake1', 'fake2', 'fake3', 'fake4', 'fake5'].map((name) => ({ name })) } };
  it.each([
    ['[0]', 'fake0'],
    ['[0:0]', ''],
    ['[0:-1]', 'fake0 fake1 fake2'],
    ['[-1]', 'fake3'],
    ['[-1:]', 'fake3'],
    ['[-2]', 'fake2'],
    ['[-2:]', 'fake2 fake3'],
    ['[-3]', 'fake1'],
    ['[-4]', 'fake0'],
    ['[-4:]', 'fake0 fake1 fake2 fake3'],
    ['[5:5]', ''],
    ['[-5:-5]', ''],
  ])('containers%s', (idx, want) => expect(run(`{.spec.containers${idx}.name}`, pod)).toBe(want));
  it.each([
    ['[-1:0]', 'starting index 3 is greater than ending index 0'],
    ['[-5]', 'array index out of bounds: index -1, length 4'],
    ['[3:1]', 'starting index 3 is greater than ending index 1'],
    ['[-1:-2]', 'starting index 3 is greater than ending index 2'],
    ['[4]', 'array index out of bounds: index 4, length 4'],
    ['[1:9]', 'array index out of bounds: index 8, length 4'],
  ])('containers%s fails', (idx, want) => expect(fails(`{.spec.containers${idx}.name}`, pod)).toBe(want));
  it.each([
    ['[0:]', 'fake0 fake1 fake2 fake3 fake4 fake5'],
    ['[0:6:]', 'fake0 fake1 fake2 fake3 fake4 fake5'],
    ['[1:4:2]', 'fake1 fake3'],
    ['[1:4:4]', 'fake1'],
    ['[0:6:5]', 'fake0 fake5'],
  ])('steps %s', (idx, want) => expect(run(`{.spec.containers${idx}.name}`, six)).toBe(want));
  it('a step must be positive', () => {
    expect(fails('{.spec.containers[0:6:0].name}', six)).toBe('step must be > 0');
    expect(fails('{.spec.containers[0:6:-1].name}', six)).toBe('step must be > 0');
  });
});

describe('execution errors (client-go TestStructInput failures, kubectl 1.32)', () => {
  const data = { Labels: { a: 1 }, Book: [{ Price: 8.95 }], name: 'x' };
  it.each([
    ['{hello}', 'unrecognized identifier hello'],
    ['{.hello}', 'hello is not found'],
    ['{.Labels[0]}', 'map[string]interface {} is not array or slice'],
    ['{.name[0]}', 'string is not array or slice'],
    ['{.Book[?(@.Price<>10)]}', 'unrecognized filter operator <>'],
    ['{range .Labels.*}{@}{end}{end}', 'not in range, nothing to end'],
    ['{.Labels[?(@.a)]}', 'map[a:1] is not array or slice and cannot be filtered'],
    ['{.Book[?(@.Price>8)]}', 'incompatible types for comparison'],
    ['{.Book[?(@=="x")]}', 'invalid type for comparison'],
    ['{.Book[*]..Price[?(@.x)]}', '8.95 is not array or slice and cannot be filtered'],
  ])('%s', (template, want) => expect(fails(template, data)).toBe(want));
  it('compares float fields with float literals, int fields with int literals', () => {
    expect(run('{.Book[?(@.Price>8.5)].Price}', data)).toBe('8.95');
    expect(run('{.Labels.*}{.Book[?(@.Price<8.0)].Price}', data)).toBe('1');
  });
});

describe('parse errors', () => {
  const parseFails = (t: string): string => {
    try {
      parseJsonPath(t);
    } catch (e) {
      return (e as Error).message;
    }
    return 'nil';
  };
  it.each([
    ['{.metadata.name', 'unclosed action'],
    ['{.a[}', 'unterminated array'],
    ['{.a[abc]}', 'invalid array index abc'],
    ['{.a[ 0 ]}', 'invalid array index  0 '],
    ['{.a[?(@.x=="y"]}', 'unterminated filter'],
    ['{"abc}', 'unterminated quoted string'],
    ['{#}', "unrecognized character in action: U+0023 '#'"],
    ['{\t}', 'unrecognized character in action: U+0009'],
    ['{....a}', 'invalid multiple recursive descent'],
    ['{1.2.3}', 'cannot parse number 1.2.3'],
    ['{"\\q"}', 'unquote string "\\q" error invalid syntax'],
  ])('%s', (t, want) => expect(parseFails(t)).toBe(want));
  it('accepts text around actions and stray closing braces', () => {
    expect(run('text {.a}}', { a: 1 })).toBe('text 1}');
  });
});

describe('kubectl 1.32 behaviours', () => {
  const pod = { kind: 'Pod', metadata: { name: 'web-1', labels: { app: 'web' } }, spec: { containers: [{ name: 'app' }, { name: 'side' }] } };
  const list = { kind: 'List', items: [pod, { ...pod, metadata: { name: 'web-2' } }] };
  it('prints maps and lists as JSON, scalars as Go does, null as null', () => {
    expect(run('{.metadata.labels} {.spec.containers[0]} {.x}', { ...pod, x: null })).toBe('{"app":"web"} {"name":"app"} null');
    expect(run('{.a} {.b} {.c} {.d} {.e}', { a: 1234567.5, b: 123456.5, c: 1e-5, d: 2000001000, e: true })).toBe('1.2345675e+06 123456.5 1e-05 2000001000 true');
    expect(run('{.a}', { a: '<b>&' })).toBe('<b>&');
    expect(run('{.a}', { a: { h: '<b>&' } })).toBe('{"h":"\\u003cb\\u003e\\u0026"}');
  });
  it('quoted text with Go escapes', () => {
    expect(run('{"a\\tb"}{\'c\\nd\'}{"\\u00e9\\x41\\101"}', {})).toBe('a\tb' + 'c\nd' + 'éAA');
  });
  it('a range without {end} runs its body per item, then once more on the enclosing object', () => {
    expect(run('{range .items[*]}{.metadata.name}|{.kind}', list, true)).toBe('web-1|Podweb-2|Pod|List');
    expect(run('{range .items[*]}{.metadata.name}{"\\n"}', list, true)).toBe('web-1\nweb-2\n\n');
    expect(run('{range .nope}x{end}y', list, true)).toBe('y');
    expect(run('{range .items[*]}{range .spec.containers[*]}{.name}{end}', pod, true)).toBe('');
  });
  it('a string is iterable (its bytes)', () => {
    expect(run('{.metadata.name.*}', pod, true)).toBe('119 101 98 45 49');
  });
  it('$ and @ are the current object; ["a.b"] means .a.b; unions', () => {
    expect(run('{$.kind} {@.metadata.name}', pod, true)).toBe('Pod web-1');
    expect(run("{['metadata']['name']} {.spec.containers[1,0].name}", pod, true)).toBe('web-1 side app');
  });
  it('findResults groups values per action', () => {
    expect(findResults(parseJsonPath('{.spec.containers[*].name}-{.kind}'), pod)).toEqual([['app', 'side'], ['-'], ['Pod']]);
  });
  it('jsonpath-as-json', () => {
    expect(executeJsonPath('{.spec.containers[*].name}{.x}', pod, { asJson: true })).toBe('[\n    "app",\n    "side"\n]\n[]\n');
  });
});
