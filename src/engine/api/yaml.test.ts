/**
 * Reading and printing manifests as kubectl does. Every expected string below was produced by
 * the real kubectl (v1.32) on this machine, e.g. `kubectl create deployment web --image=nginx
 * --dry-run=client -o yaml` and `kubectl create -f bad.yaml --dry-run=client`, and copied here.
 * Sources: staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go, sigs.k8s.io/yaml,
 * gopkg.in/yaml.v2 (resolve.go, emitterc.go, sorter.go), staging/src/k8s.io/kubectl/pkg/validation.
 */
import { describe, expect, it } from 'vitest';
import { findLineOfPath, goYamlKeyLess, MAX_MANIFEST_BYTES, parseManifests, toYaml } from './yaml';

describe('toYaml matches kubectl -o yaml', () => {
  it('kubectl create deployment web --image=nginx --dry-run=client -o yaml', () => {
    // The object as `-o json` prints it (field order of the Go struct), printed back as YAML.
    const obj = {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'web', creationTimestamp: null, labels: { app: 'web' } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] } },
        strategy: {},
      },
      status: {},
    };
    expect(toYaml(obj)).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  creationTimestamp: null
  labels:
    app: web
  name: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  strategy: {}
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: web
    spec:
      containers:
      - image: nginx
        name: nginx
        resources: {}
status: {}
`);
  });

  it('kubectl create configmap x --from-literal=a=1 --from-literal=port=80 --dry-run=client -o yaml', () => {
    const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', creationTimestamp: null }, data: { a: '1', port: '80' } };
    expect(toYaml(obj)).toBe(`apiVersion: v1
data:
  a: "1"
  port: "80"
kind: ConfigMap
metadata:
  creationTimestamp: null
  name: x
`);
  });

  it('kubectl create service clusterip web --tcp=80:8080 --dry-run=client -o yaml (list of maps under a key)', () => {
    const obj = {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'web', creationTimestamp: null, labels: { app: 'web' } },
      spec: { ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }], selector: { app: 'web' }, type: 'ClusterIP' },
      status: { loadBalancer: {} },
    };
    expect(toYaml(obj)).toBe(`apiVersion: v1
kind: Service
metadata:
  creationTimestamp: null
  labels:
    app: web
  name: web
spec:
  ports:
  - name: 80-8080
    port: 80
    protocol: TCP
    targetPort: 8080
  selector:
    app: web
  type: ClusterIP
status:
  loadBalancer: {}
`);
  });

  it('quotes, escapes, folds and blocks strings as go-yaml v2 does (kubectl create configmap with tricky values)', () => {
    const data: Record<string, string> = {
      k00: 'on', k01: 'Off', k02: 'NO', k03: '~', k04: 'Null', k05: '0o17', k06: '017', k07: '0b101', k08: '1_000', k09: '1e3',
      k10: '.5', k11: '-.inf', k12: '.NaN', k13: '1:20', k14: '2024-01-05T06:16:38Z', k15: '2024-01-05', k16: 'a:b', k17: 'a :b',
      k18: 'a #b', k19: '-a', k20: '- a', k21: '?x', k22: ':x', k23: 'x:', k24: '[a]', k25: '{a}', k26: '!x', k27: '&x', k28: '%x',
      k29: '@x', k30: '`x', k31: '"q"', k32: "'q'", k33: 'trail ', k34: "it's", k35: 'a,b', k36: '|x', k37: '>x', k38: 'x|', k39: '=',
      k40: '<<', k41: 'yes please', k42: '+1', k43: '-1', k44: '1.', k45: '0x', k46: '12e', k47: 'héllo',
      cr: 'a\n', mlt: 'a \nb', nl2: 'a\n\n', tab: 'a\tb', e: '', y: 'yes', n: 'null', s: '*', h: '#x',
      lead: '  x\ny', km: 'ü ünïcode 😀', kk: 'a\n b', kl: 'a\n\nb',
      long: 'the quick brown fox jumps over the lazy dog and then the quick brown fox jumps over the lazy dog again and again and again',
      longd: 'the quick brown fox\tjumps over the lazy dog and then the quick brown fox jumps over the lazy dog again and again and again',
      longq: 'the quick brown fox: jumps over the lazy dog and then the quick brown fox jumps over the lazy dog again and again and again',
      verylongkeyverylongkeyverylongkeyverylongkeyverylongkeyverylongkey: 'aaaa bbbb cccc dddd eeee ffff',
      nospace: 'a'.repeat(138),
      dbl: 'a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p  q  r  s  t  u  v  w  x  y  z  a  b  c  d  e  f',
    };
    expect(toYaml({ data })).toBe(`data:
  cr: |
    a
  dbl: a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p  q  r  s  t  u  v  w  x  y  z  a  b  c  d  e  f
  e: ""
  h: '#x'
  k00: "on"
  k01: "Off"
  k02: "NO"
  k03: "~"
  k04: "Null"
  k05: "0o17"
  k06: "017"
  k07: "0b101"
  k08: "1_000"
  k09: "1e3"
  k10: ".5"
  k11: "-.inf"
  k12: ".NaN"
  k13: "1:20"
  k14: "2024-01-05T06:16:38Z"
  k15: "2024-01-05"
  k16: a:b
  k17: a :b
  k18: 'a #b'
  k19: -a
  k20: '- a'
  k21: ?x
  k22: :x
  k23: 'x:'
  k24: '[a]'
  k25: '{a}'
  k26: '!x'
  k27: '&x'
  k28: '%x'
  k29: '@x'
  k30: '\`x'
  k31: '"q"'
  k32: '''q'''
  k33: 'trail '
  k34: it's
  k35: a,b
  k36: '|x'
  k37: '>x'
  k38: x|
  k39: =
  k40: <<
  k41: yes please
  k42: "+1"
  k43: "-1"
  k44: "1."
  k45: 0x
  k46: 12e
  k47: héllo
  kk: |-
    a
     b
  kl: |-
    a

    b
  km: "ü ünïcode \\U0001F600"
  lead: |2-
      x
    y
  long: the quick brown fox jumps over the lazy dog and then the quick brown fox jumps
    over the lazy dog again and again and again
  longd: "the quick brown fox\\tjumps over the lazy dog and then the quick brown fox
    jumps over the lazy dog again and again and again"
  longq: 'the quick brown fox: jumps over the lazy dog and then the quick brown fox
    jumps over the lazy dog again and again and again'
  mlt: "a \\nb"
  "n": "null"
  nl2: |+
    a

  nospace: ${'a'.repeat(138)}
  s: '*'
  tab: "a\\tb"
  verylongkeyverylongkeyverylongkeyverylongkeyverylongkeyverylongkey: aaaa bbbb cccc
    dddd eeee ffff
  "y": "yes"
`);
  });

  it('prints strings inside lists and keys over 128 bytes as kubectl does (create deployment -- sh -c ..., configmap with a long key)', () => {
    // `kubectl create deployment x --image=busybox --dry-run=client -o json -- sh -c $'echo a\necho b' '<long>' '' 'yes'`
    const obj = {"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "x", "creationTimestamp": null, "labels": {"app": "x"}}, "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "x"}}, "template": {"metadata": {"creationTimestamp": null, "labels": {"app": "x"}}, "spec": {"containers": [{"name": "busybox", "image": "busybox", "command": ["sh", "-c", "echo a\necho b", "the quick brown fox jumps over the lazy dog and then the quick brown fox jumps over the lazy dog again", "", "yes"], "resources": {}}]}}, "strategy": {}}, "status": {}};
    expect(toYaml(obj)).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  creationTimestamp: null
  labels:
    app: x
  name: x
spec:
  replicas: 1
  selector:
    matchLabels:
      app: x
  strategy: {}
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: x
    spec:
      containers:
      - command:
        - sh
        - -c
        - |-
          echo a
          echo b
        - the quick brown fox jumps over the lazy dog and then the quick brown fox
          jumps over the lazy dog again
        - ""
        - "yes"
        image: busybox
        name: busybox
        resources: {}
status: {}
`);
    const key = 'k'.repeat(130);
    expect(toYaml({ data: { [key]: 'v\nw', short: 'v' } })).toBe(`data:\n  ? ${key}\n  : |-\n    v\n    w\n  short: v\n`);
  });

  it('sorts keys with go-yaml\'s order: non-letters first, digit runs numerically (kubectl configmap with keys a10, a9, _a, ...)', () => {
    const keys = ['a10', 'a9', 'a_b', 'aB', 'ab', 'Ab', 'a-b', 'a.b', '1', '10', '9', 'z', 'a09', 'a009', 'x1y2', 'x1y10', '_a', 'B'];
    const sorted = [...keys].sort((x, y) => (goYamlKeyLess(x, y) ? -1 : goYamlKeyLess(y, x) ? 1 : 0));
    expect(sorted).toEqual(['_a', '1', '9', '10', 'Ab', 'B', 'a-b', 'a.b', 'a_b', 'a9', 'a09', 'a009', 'a10', 'aB', 'ab', 'x1y2', 'x1y10', 'z']);
  });

  it('prints numbers as Go does after the JSON round trip (ints plain, floats %g) and nested lists as "- - "', () => {
    expect(toYaml({ a: 1.5, b: 1234567.5, c: 0.00001, d: 10, e: [[1, 2], []], f: true, g: null })).toBe(
      'a: 1.5\nb: 1.2345675e+06\nc: 1e-05\nd: 10\ne:\n- - 1\n  - 2\n- []\nf: true\ng: null\n',
    );
  });
});

/** A ConfigMap header of 4 lines, as in the kubectl transcripts below. */
const H = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n';

describe('parseManifests errors match kubectl create -f', () => {
  // [file content, what kubectl 1.32 printed for `kubectl create -f <name>.yaml --dry-run=client`]
  const cases: Record<string, [string, string]> = {
    compact: [`${H}data:\n  a: b: c\n`, 'error converting YAML to JSON: yaml: line 6: mapping values are not allowed in this context'],
    tab: [`${H}data:\n\ta: b\n`, 'error converting YAML to JSON: yaml: line 6: found character that cannot start any token'],
    quote: [`${H}data:\n  a: "b\n  c: d\n`, 'error converting YAML to JSON: yaml: line 8: found unexpected end of stream'],
    squote: [`${H}data:\n  a: 'b\n`, 'error converting YAML to JSON: yaml: line 7: found unexpected end of stream'],
    flow: [`${H}data: [a, b\nx: y\n`, "error converting YAML to JSON: yaml: line 5: did not find expected ',' or ']'"],
    flowmap: [`${H}data: {a: b\nx: y\n`, "error converting YAML to JSON: yaml: line 5: did not find expected ',' or '}'"],
    badind: [`${H}spec:\n  containers:\n  - name: x\n   image: y\n`, 'error converting YAML to JSON: yaml: line 7: did not find expected key'],
    mapseq: [`${H}- c\n`, 'error converting YAML to JSON: yaml: line 4: did not find expected key'],
    multikey: [`${H}data\nb: c\n`, "error converting YAML to JSON: yaml: line 6: could not find expected ':'"],
    indentmap: [`${H}data:\n  b: 1\n c: 2\n`, 'error converting YAML to JSON: yaml: line 6: did not find expected key'],
    at: [`${H}data:\n  a: @x\n`, 'error converting YAML to JSON: yaml: line 6: found character that cannot start any token'],
    unknownAnchor: [`${H}data:\n  a: *nope\n`, "error converting YAML to JSON: yaml: unknown anchor 'nope' referenced"],
    badalias: [`${H}data:\n  a: *\n`, 'error converting YAML to JSON: yaml: line 6: did not find expected alphabetic or numeric character'],
    separator: [`${H}--- x\n`, 'invalid Yaml document separator: x'],
    literal: [`${H}data:\n  a: |\nb\n`, "error converting YAML to JSON: yaml: line 8: could not find expected ':'"],
    seqmap: ['- a\nb: c\n', "error converting YAML to JSON: yaml: line 1: did not find expected '-' indicator"],
    seqind: [`${H}data:\n  - a\n  b: c\n`, "error converting YAML to JSON: yaml: line 6: did not find expected '-' indicator"],
    blockseq: [`${H}data: - a\n`, 'error converting YAML to JSON: yaml: line 5: block sequence entries are not allowed in this context'],
    trailing: [`${H}data:\n  a: "b" c\n`, 'error converting YAML to JSON: yaml: line 5: did not find expected key'],
    emptykey: [`${H}data:\n  : b\n`, 'error converting YAML to JSON: yaml: line 5: did not find expected key'],
    escape: [`${H}data:\n  a: "\\q"\n`, 'error converting YAML to JSON: yaml: line 6: found unknown escape character'],
    infinity: [`${H}data:\n  a: .inf\n`, 'error converting YAML to JSON: json: unsupported value: +Inf'],
    merge: [`${H}data:\n  <<: 3\n`, 'error converting YAML to JSON: yaml: map merge requires map or sequence of maps as the value'],
    directive: [`%YAML 1.1\n---\n${H}`, 'error converting YAML to JSON: yaml: line 1: did not find expected <document start>'],
    json: ['{"apiVersion": "v1", "kind": "ConfigMap",\n "metadata": {"name": "x",}}', "json: offset 69: invalid character '}' looking for beginning of object key string"],
    jsonUtf8: ['\n\n{"apiVersion": "v1", "kind": "ConfigMap",\n "metadata": {"name": "é",}}', "json: offset 72: invalid character '}' looking for beginning of object key string"],
    jsonEof: ['{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"', 'unexpected EOF'],
    jsonLiteral: ['{"apiVersion": "v1", "kind": tru}', "json: offset 33: invalid character '}' in literal true (expecting 'e')"],
    jsonNumber: ['{"apiVersion": "v1", "kind": -x}', "json: offset 31: invalid character 'x' in numeric literal"],
  };
  for (const [name, [text, want]] of Object.entries(cases)) {
    it(`${name}: error parsing ... ${want.slice(0, 60)}`, () => {
      const docs = parseManifests(text, `${name}.yaml`);
      expect(docs.at(-1)?.error).toBe(`error: error parsing ${name}.yaml: ${want}`);
    });
  }

  const validation: Record<string, [string, string]> = {
    nokind: ['apiVersion: v1\nmetadata:\n  name: x\n', 'kind not set'],
    noapi: ['kind: ConfigMap\nmetadata:\n  name: x\n', 'apiVersion not set'],
    none: ['metadata:\n  name: x\n', '[apiVersion not set, kind not set]'],
    scalar: ['hello\n', 'invalid object to validate'],
    array: ['- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: x}\n', 'invalid object to validate'],
    jsonArray: ['[{"apiVersion": "v1"}]', 'invalid object to validate'],
    intKind: ['apiVersion: v1\nkind: 3\nmetadata:\n  name: x\n', "kind isn't string type"],
  };
  for (const [name, [text, want]] of Object.entries(validation)) {
    it(`${name}: error validating data: ${want}`, () => {
      expect(parseManifests(text, `${name}.yaml`).at(-1)?.error).toBe(
        `error: error validating "${name}.yaml": error validating data: ${want}; if you choose to ignore these errors, turn validation off with --validate=false`,
      );
    });
  }

  it('counts the line from the start of the failing document, and reports the absolute line separately', () => {
    // kubectl create -f syn2.yaml: the bad line is line 11 of the file, line 6 of its document.
    const text = `${H}---\n${H}data:\n  a: b: c\n`;
    const docs = parseManifests(text, '/tmp/syn2.yaml');
    expect(docs[0].object?.metadata.name).toBe('x');
    expect(docs[1].error).toBe('error: error parsing /tmp/syn2.yaml: error converting YAML to JSON: yaml: line 6: mapping values are not allowed in this context');
    expect(docs[1].errorLine).toBe(11);
  });
});

describe('parseManifests reading', () => {
  it('reads several documents, skips empty ones and reports where each starts', () => {
    const text = `# leading comment\n${H}---\n# only a comment\n---\n\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n---\n`;
    const docs = parseManifests(text);
    expect(docs.map((d) => [d.object?.kind, d.line])).toEqual([
      ['ConfigMap', 2],
      ['Service', 11],
    ]);
  });

  it('reads YAML 1.1 scalars as go-yaml v2 does: yes/no/on/off booleans, 0777 octal, timestamps as strings', () => {
    const [d] = parseManifests(`${H}spec:\n  a: yes\n  b: Off\n  c: 0777\n  d: 0x1F\n  e: 2024-01-05T06:16:38Z\n  f: 1e3\n  g: "80"\n  h: ~\n  i: 1_000\n  j: 1:20\n  k: '0777'\n  y: 1\n`);
    expect(d.object?.spec).toEqual({ a: true, b: false, c: 511, d: 31, e: '2024-01-05T06:16:38Z', f: 1000, g: '80', h: null, i: 1000, j: '1:20', k: '0777', true: 1 });
  });

  it('reads JSON, a JSON stream, anchors, aliases and << merge keys', () => {
    const json = parseManifests('{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}\n{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b"}}');
    expect(json.map((d) => d.object?.metadata.name)).toEqual(['a', 'b']);
    const [d] = parseManifests(`${H}base: &b {p: 1, q: 2}\ndata:\n  <<: *b\n  q: 3\nother: *b\n`);
    expect(d.object?.data).toEqual({ p: 1, q: 3 });
    expect(d.object?.other).toEqual({ p: 1, q: 2 });
  });

  it('flattens kind: List into its items (kubectl\'s FlattenListVisitor)', () => {
    const docs = parseManifests(
      'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: b\n',
    );
    expect(docs.map((d) => [d.object?.kind, d.object?.metadata.name, d.line])).toEqual([
      ['ConfigMap', 'a', 4],
      ['Secret', 'b', 8],
    ]);
  });

  it('stops at the first bad document, as kubectl apply does after applying the ones before it', () => {
    const docs = parseManifests(`${H}---\nkind: Pod\n---\n${H}`, 'f.yaml');
    expect(docs).toHaveLength(2);
    expect(docs[1].error).toContain('apiVersion not set');
  });
});

describe('parseManifests refuses bad input quickly', () => {
  it('refuses more than 3 MiB like kube-apiserver (Request entity too large: limit is 3145728)', () => {
    const docs = parseManifests(`${H}data:\n  a: ${'x'.repeat(MAX_MANIFEST_BYTES)}\n`);
    expect(docs).toEqual([{ error: 'Error from server (RequestEntityTooLarge): Request entity too large: limit is 3145728', line: 1, errorLine: 1 }]);
  });

  it('refuses a billion-laughs document with go-yaml\'s message, fast', () => {
    const lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [x, y] of ['ba', 'cb', 'dc', 'ed', 'fe', 'gf', 'hg', 'ih'].map((s) => [s[0], s[1]])) lol.push(`${x}: &${x} [${Array(9).fill(`*${y}`).join(',')}]`);
    const t0 = process.hrtime.bigint();
    const docs = parseManifests(lol.join('\n') + '\n', 'bomb.yaml');
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    // kubectl create -f bomb.yaml prints exactly this.
    expect(docs[0].error).toBe('error: error parsing bomb.yaml: error converting YAML to JSON: yaml: document contains excessive aliasing');
    expect(ms).toBeLessThan(1000);
  });

  it('refuses nesting deeper than 100 levels, flow or block, without exhausting the stack', () => {
    const flow = parseManifests(`${H}data: ${'['.repeat(100000)}${']'.repeat(100000)}\n`, 'deep.yaml');
    expect(flow[0].error).toBe('error: error parsing deep.yaml: error converting YAML to JSON: yaml: line 5: exceeded max depth of 100');
    let block = `${H}data:\n`;
    for (let i = 1; i < 150; i++) block += `${' '.repeat(i)}a:\n`;
    expect(parseManifests(block, 'deep.yaml')[0].error).toBe('error: error parsing deep.yaml: error converting YAML to JSON: yaml: line 105: exceeded max depth of 100');
    const json = parseManifests(`{"a": ${'['.repeat(100000)}`, 'deep.json');
    expect(json[0].error).toBe('error: error parsing deep.json: json: offset 107: exceeded max depth of 100');
  });

  it('refuses more than 1000 documents', () => {
    const doc = `${H}---\n`;
    expect(parseManifests(doc.repeat(1000))).toHaveLength(1000);
    expect(parseManifests(doc.repeat(1001), 'many.yaml')).toEqual([
      { error: 'error: error parsing many.yaml: too many documents: 1001 (the limit is 1000)', line: 1, errorLine: 1 },
    ]);
  });
});

describe('findLineOfPath', () => {
  const text = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx
        ports:
        - containerPort: 80
      - name: side
        image: busybox
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  labels:
    app.kubernetes.io/name: web
`;

  it('maps API field paths to lines, in any document', () => {
    expect(findLineOfPath(text, 0, 'spec.template.spec.containers[0].image')).toBe(10);
    expect(findLineOfPath(text, 0, 'spec.template.spec.containers[0].ports[0].containerPort')).toBe(12);
    expect(findLineOfPath(text, 0, 'spec.template.spec.containers[1].image')).toBe(14);
    expect(findLineOfPath(text, 0, 'metadata.name')).toBe(4);
    expect(findLineOfPath(text, 1, 'metadata.labels[app.kubernetes.io/name]')).toBe(21);
  });

  it('falls back to the deepest existing ancestor for a missing field (Required value errors)', () => {
    expect(findLineOfPath(text, 0, 'spec.selector')).toBe(5);
    expect(findLineOfPath(text, 0, 'spec.template.spec.containers[1].resources.limits')).toBe(13);
    expect(findLineOfPath(text, 5, 'spec')).toBeUndefined();
  });
});
