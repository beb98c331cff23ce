import { describe, it, expect } from 'vitest';
import {
  parseLabelSelector,
  selectorFromLabelSelector,
  selectorFromSet,
  labelSelectorToString,
  parseFieldSelector,
  fieldSelectorSupported,
  fieldValue,
  isDNS1123Label,
  isDNS1123Subdomain,
  isDNS1035Label,
  isQualifiedName,
  isValidLabelValue,
  everything,
  nothing,
} from './labels';
import { ApiError } from './errors';
import type { KubeObject } from './types';

function thrown(f: () => unknown): ApiError {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('parseLabelSelector (apimachinery labels/selector.go Parse)', () => {
  const l = { app: 'web', tier: 'front', env: 'prod' };

  it('equality, inequality and the == spelling', () => {
    // selector.go: Equals, DoubleEquals and NotEquals requirements; a missing key satisfies !=.
    expect(parseLabelSelector('app=web').matches(l)).toBe(true);
    expect(parseLabelSelector('app==web').matches(l)).toBe(true);
    expect(parseLabelSelector('app!=web').matches(l)).toBe(false);
    expect(parseLabelSelector('app!=db').matches(l)).toBe(true);
    expect(parseLabelSelector('missing!=x').matches(l)).toBe(true);
    expect(parseLabelSelector('missing=x').matches(l)).toBe(false);
  });

  it('set-based in / notin, exists and !key, comma-separated AND, whitespace tolerated', () => {
    // selector.go Requirement.Matches: notin matches when the key is absent.
    expect(parseLabelSelector('tier in (front, back)').matches(l)).toBe(true);
    expect(parseLabelSelector('tier in (back)').matches(l)).toBe(false);
    expect(parseLabelSelector('tier notin (back)').matches(l)).toBe(true);
    expect(parseLabelSelector('other notin (x)').matches(l)).toBe(true);
    expect(parseLabelSelector('app').matches(l)).toBe(true);
    expect(parseLabelSelector('!app').matches(l)).toBe(false);
    expect(parseLabelSelector('!other').matches(l)).toBe(true);
    expect(parseLabelSelector(' app = web ,  env in ( prod ) , !debug').matches(l)).toBe(true);
    expect(parseLabelSelector('app=web,env=dev').matches(l)).toBe(false);
  });

  it('matches an object without labels like an empty label set', () => {
    // labels.Set(nil) has no keys: !key and notin hold, = and exists do not.
    expect(parseLabelSelector('!a').matches(undefined)).toBe(true);
    expect(parseLabelSelector('a notin (b)').matches(undefined)).toBe(true);
    expect(parseLabelSelector('a').matches(undefined)).toBe(false);
  });

  it('does not treat Object.prototype properties as labels', () => {
    expect(parseLabelSelector('constructor').matches({})).toBe(false);
    expect(parseLabelSelector('!toString').matches({})).toBe(true);
  });

  it('gt / lt compare integers (selector.go GreaterThan, LessThan)', () => {
    expect(parseLabelSelector('gen>2').matches({ gen: '3' })).toBe(true);
    expect(parseLabelSelector('gen>2').matches({ gen: '2' })).toBe(false);
    expect(parseLabelSelector('gen<2').matches({ gen: 'x' })).toBe(false);
  });

  it('empty string is Everything; toString sorts requirements by key and values', () => {
    // parse(): sort.Sort(ByKey(items)); Requirement.String() sorts multiple values.
    const e = parseLabelSelector('');
    expect(e.empty()).toBe(true);
    expect(e.matches({ x: 'y' })).toBe(true);
    expect(parseLabelSelector('tier in (web,api), app = shop').toString()).toBe('app=shop,tier in (api,web)');
    expect(parseLabelSelector('!b,a').toString()).toBe('a,!b');
    expect(parseLabelSelector('x notin ()').toString()).toBe('x notin ()');
  });

  it('rejects an invalid key with the real parser message (BadRequest)', () => {
    // Real: kubectl get pods -l "app:monolith" -> unable to parse requirement: <nil>: Invalid value: "app:monolith": name part must consist of ...
    const e = thrown(() => parseLabelSelector('app:monolith'));
    expect(e.code).toBe(400);
    expect(e.message).toBe(
      `unable to parse requirement: <nil>: Invalid value: "app:monolith": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  });

  it('rejects a prefix that is not a DNS subdomain', () => {
    const e = thrown(() => parseLabelSelector('app.kubernetes_io/name=x'));
    expect(e.message.startsWith('unable to parse requirement: <nil>: Invalid value: "app.kubernetes_io/name": prefix part a lowercase RFC 1123 subdomain must consist of')).toBe(true);
  });

  it('rejects an invalid value with the NewRequirement path values[0][key]', () => {
    const e = thrown(() => parseLabelSelector('app=-bad-'));
    expect(e.message).toBe(
      `unable to parse requirement: values[0][app]: Invalid value: "-bad-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    );
  });

  it('syntax errors use the parser wording', () => {
    // selector.go parse(): "found '%s', expected: identifier after ','" etc.
    expect(thrown(() => parseLabelSelector('a=b,')).message).toBe("found '', expected: identifier after ','");
    expect(thrown(() => parseLabelSelector('a in b')).message).toBe("unable to parse requirement: found 'b' expected: '('");
    expect(thrown(() => parseLabelSelector('a b')).message).toBe("unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
    expect(thrown(() => parseLabelSelector(',a')).message).toBe("found ',', expected: !, identifier, or 'end of string'");
  });
});

describe('selectorFromLabelSelector (metav1 LabelSelectorAsSelector)', () => {
  it('nil selects nothing, {} selects everything', () => {
    // helpers.go: `if ps == nil { return labels.Nothing() }`, empty -> labels.Everything().
    expect(selectorFromLabelSelector(undefined).matches({ a: 'b' })).toBe(false);
    expect(selectorFromLabelSelector(null).empty()).toBe(false);
    expect(selectorFromLabelSelector({}).matches({ a: 'b' })).toBe(true);
    expect(selectorFromLabelSelector({ matchLabels: {} }).empty()).toBe(true);
    expect(nothing().matches({})).toBe(false);
    expect(everything().matches(undefined)).toBe(true);
  });

  it('ANDs matchLabels with In/NotIn/Exists/DoesNotExist expressions', () => {
    const s = selectorFromLabelSelector({
      matchLabels: { app: 'catalog' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['web', 'api'] },
        { key: 'env', operator: 'NotIn', values: ['dev'] },
        { key: 'team', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    expect(s.matches({ app: 'catalog', tier: 'web', team: 'x' })).toBe(true);
    expect(s.matches({ app: 'catalog', tier: 'web', team: 'x', legacy: 'y' })).toBe(false);
    expect(s.matches({ app: 'catalog', tier: 'db', team: 'x' })).toBe(false);
    expect(s.matches({ app: 'catalog', tier: 'web', team: 'x', env: 'dev' })).toBe(false);
  });

  it('refuses an unknown operator with the helpers.go message', () => {
    const e = thrown(() => selectorFromLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Foo' }] }));
    expect(e.message).toBe('"Foo" is not a valid label selector operator');
  });

  it('selectorFromSet is exact match; nil/empty is Everything (labels.SelectorFromSet)', () => {
    expect(selectorFromSet({ app: 'web' }).matches({ app: 'web', x: 'y' })).toBe(true);
    expect(selectorFromSet({ app: 'web' }).matches({ app: 'db' })).toBe(false);
    expect(selectorFromSet(undefined).empty()).toBe(true);
  });
});

describe('labelSelectorToString (metav1.FormatLabelSelector, kubectl -o wide SELECTOR)', () => {
  it('prints requirements sorted by key, <none> when empty', () => {
    expect(labelSelectorToString({ matchLabels: { tier: 'web', app: 'catalog' } })).toBe('app=catalog,tier=web');
    expect(labelSelectorToString({ matchLabels: { app: 'catalog' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] })).toBe('app=catalog,tier in (web)');
    expect(labelSelectorToString({ matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] })).toBe('!x');
    expect(labelSelectorToString(undefined)).toBe('<none>');
    expect(labelSelectorToString({})).toBe('<none>');
    expect(labelSelectorToString({ matchExpressions: [{ key: 'a', operator: 'Bad' }] })).toBe('<error>');
  });
});

describe('name and label string checks (util/validation/validation.go)', () => {
  it('DNS-1123 label, with the double space of RegexError examples', () => {
    expect(isDNS1123Label('my-name')).toEqual([]);
    expect(isDNS1123Label('My_Name')).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });

  it('DNS-1123 subdomain and DNS-1035 label', () => {
    expect(isDNS1123Subdomain('example.com')).toEqual([]);
    expect(isDNS1123Subdomain('a'.repeat(254))[0]).toBe('must be no more than 253 characters');
    expect(isDNS1035Label('1abc')).toEqual([
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });

  it('qualified names and label values', () => {
    expect(isQualifiedName('app.kubernetes.io/name')).toEqual([]);
    expect(isQualifiedName('/x')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('a/b/c')[0]).toMatch(/^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('a'.repeat(64))[0]).toBe('must be no more than 63 characters');
  });
});

describe('field selectors (fields/selector.go, core/v1 conversion.go)', () => {
  const pod = (name: string, node: string, phase: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName: node, restartPolicy: 'Always' },
    status: { phase, podIPs: [{ ip: '10.244.1.5' }] },
  });

  it('=, == and != over pod fields; comma is AND', () => {
    const a = pod('a', 'n1', 'Running');
    expect(parseFieldSelector('spec.nodeName=n1').matches(a)).toBe(true);
    expect(parseFieldSelector('spec.nodeName==n2').matches(a)).toBe(false);
    expect(parseFieldSelector('status.phase!=Running').matches(a)).toBe(false);
    expect(parseFieldSelector('metadata.name=a,metadata.namespace=default').matches(a)).toBe(true);
    expect(parseFieldSelector('status.podIP=10.244.1.5').matches(a)).toBe(true);
    expect(parseFieldSelector('spec.hostNetwork=false').matches(a)).toBe(true);
    expect(parseFieldSelector('').empty()).toBe(true);
  });

  it('kubectl get pods --field-selector spec.nodeName= finds unscheduled pods', () => {
    // A missing field reads as "" in the fields.Set the registry builds.
    expect(parseFieldSelector('spec.nodeName=').matches(pod('p', '', 'Pending'))).toBe(true);
  });

  it('Event, Secret, Node, Namespace and Job fields', () => {
    const ev = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', uid: 'u1' },
      reason: 'BackOff',
      type: 'Warning',
      source: { component: 'kubelet' },
    } as KubeObject;
    expect(parseFieldSelector('involvedObject.kind=Pod,involvedObject.name=web,type=Warning,reason=BackOff,source=kubelet').matches(ev)).toBe(true);
    expect(fieldValue({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'kubernetes.io/tls' }, 'type')).toBe('kubernetes.io/tls');
    expect(fieldValue({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec: {} }, 'spec.unschedulable')).toBe('false');
    expect(fieldValue({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' }, status: { phase: 'Active' } }, 'status.phase')).toBe('Active');
    expect(fieldValue({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, status: { succeeded: 2 } }, 'status.successful')).toBe('2');
  });

  it('escapes: \\, \\= \\\\ in values; toString re-escapes (EscapeValue)', () => {
    const s = parseFieldSelector('metadata.name=a\\,b');
    expect(s.requirements[0].value).toBe('a,b');
    expect(s.toString()).toBe('metadata.name=a\\,b');
  });

  it('bad syntax and escapes give the fields package errors', () => {
    expect(thrown(() => parseFieldSelector('spec.nodeName')).message).toBe("invalid selector: 'spec.nodeName'; can't understand 'spec.nodeName'");
    expect(thrown(() => parseFieldSelector('metadata.name=a\\b')).message).toBe('invalid field selector: invalid escape sequence: \\b');
    expect(thrown(() => parseFieldSelector('metadata.name=a=b')).message).toBe('invalid field selector: unescaped character in value: 61');
  });

  it('unsupported fields: `field label not supported` for kinds with a conversion, the default message otherwise', () => {
    // core/v1 conversion.go: fmt.Errorf("field label not supported: %s", label)
    const e = thrown(() => parseFieldSelector('spec.foo=bar', 'Pod'));
    expect(e.code).toBe(400);
    expect(e.message).toBe('field label not supported: spec.foo');
    // runtime DefaultMetaV1FieldSelectorConversion
    expect(thrown(() => parseFieldSelector('spec.replicas=1', 'Deployment')).message).toBe(
      '"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    expect(fieldSelectorSupported('Pod', 'spec.nodeName')).toBe(true);
    expect(fieldSelectorSupported('Pod', 'status.nominatedNodeName')).toBe(true);
    expect(fieldSelectorSupported('Secret', 'type')).toBe(true);
    expect(fieldSelectorSupported('Node', 'spec.unschedulable')).toBe(true);
    expect(fieldSelectorSupported('Node', 'metadata.namespace')).toBe(false);
    expect(fieldSelectorSupported('ConfigMap', 'metadata.namespace')).toBe(true);
    expect(fieldSelectorSupported('ConfigMap', 'data')).toBe(false);
    expect(fieldSelectorSupported('Job', 'status.successful')).toBe(true);
  });
});

describe('isQualifiedName fast path', () => {
  /** The checks without the fast path (the function's own slow path, as it was written). */
  function reference(value: string): string[] {
    const errs: string[] = [];
    const parts = value.split('/');
    let name: string;
    if (parts.length === 1) name = parts[0];
    else if (parts.length === 2) {
      name = parts[1];
      if (parts[0].length === 0) errs.push('prefix part must be non-empty');
      else for (const m of isDNS1123Subdomain(parts[0])) errs.push('prefix part ' + m);
    } else return ['many'];
    if (name.length === 0) errs.push('name part must be non-empty');
    else if (name.length > 63) errs.push('too long');
    if (!/^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/.test(name)) errs.push('regex');
    return errs;
  }

  it('accepts exactly the names the full checks accept', () => {
    const pieces = ['', 'a', 'A', '0', '-', '_', '.', '/', 'app', 'example.com', 'a-b', 'a_b', 'a.b', 'x'.repeat(63), 'y'.repeat(64), 'z'.repeat(253), '9'.repeat(254), 'é', ' '];
    const values: string[] = [];
    for (const p of pieces) for (const q of pieces) values.push(p + q, `${p}/${q}`, `${p}/${q}/${p}`);
    values.push('kubernetes.io/metadata.name', 'app.kubernetes.io/name', 'pod-template-hash', 'Example.com/Name', 'example.com./name', '.example.com/name');
    for (const v of values) expect(isQualifiedName(v).length === 0, JSON.stringify(v)).toBe(reference(v).length === 0);
  });
});
