/**
 * Label selectors, field selectors and the name/label string checks they share, as apimachinery
 * implements them.
 *
 * Sources (kubernetes/kubernetes, staging/src/k8s.io/apimachinery/pkg/...):
 * - labels/selector.go: `Requirement`, `Parse` (the `kubectl -l` grammar), `Selector.String()`.
 * - apis/meta/v1/helpers.go: `LabelSelectorAsSelector`, `FormatLabelSelector`.
 * - fields/selector.go: `ParseSelector`, `splitTerms`, `splitTerm`, `UnescapeValue`, `EscapeValue`.
 * - util/validation/validation.go (1.32-1.34; moved to api/validate/content in 1.35):
 *   `IsQualifiedName`, `IsValidLabelValue`, `IsDNS1123Label`, `IsDNS1123Subdomain`,
 *   `IsDNS1035Label`, `RegexError`, `MaxLenError`.
 * - pkg/apis/core/v1/conversion.go, pkg/apis/batch/v1/conversion.go: field labels per kind;
 *   pkg/registry/core/pod/strategy.go (`ToSelectableFields`) and friends: their values.
 *
 * Performance: selectors are compiled once into closures; `matches` does no parsing, no
 * allocation for the common one-requirement case, and never throws. Watch fan-out calls it on
 * every write.
 */
import { errors } from './errors';
import type { KubeObject, LabelSelector } from './types';

// ------------------------------------------------------------------ string validators

/**
 * `validation.RegexError`: `<msg> (e.g. 'a',  or 'b', regex used for validation is '<re>')`.
 * Each example is written `'x', ` and joined with `or `, hence the double space after commas.
 */
export function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  let s = msg + ' (e.g. ';
  examples.forEach((e, i) => {
    if (i > 0) s += ' or ';
    s += `'${e}', `;
  });
  return s + `regex used for validation is '${re}')`;
}

/**
 * `validation.MaxLenError`: `must be no more than N characters` (1.32-1.34 wording; the 1.35+
 * `content` package says `bytes`).
 */
export function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
/** A DNS-1123 subdomain prefix, '/', and a qualified name (the valid prefixed `IsQualifiedName` form, lengths aside). */
const PREFIXED_QUALIFIED_NAME_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}/${QUALIFIED_NAME_FMT}$`);
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** Max length of a DNS-1123 label / DNS-1035 label / label value / qualified-name part. */
export const DNS1123_LABEL_MAX = 63;
/** Max length of a DNS-1123 subdomain (most object names). */
export const DNS1123_SUBDOMAIN_MAX = 253;

/** `IsDNS1123Label`: the error strings for `value` ([] when valid). Namespaces, container names. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!DNS1123_LABEL_RE.test(value)) {
    // A valid subdomain that is not a label can only be so because of dots.
    if (DNS1123_SUBDOMAIN_RE.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
}

/** `IsDNS1123Subdomain`: the error strings for `value` ([] when valid). Most object names. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** `IsDNS1035Label`: the error strings for `value` ([] when valid). Service names. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!DNS1035_LABEL_RE.test(value)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

/**
 * `IsQualifiedName`: a label key / annotation key / finalizer: `[prefix/]name`, the prefix a
 * DNS-1123 subdomain, the name at most 63 characters of `[-A-Za-z0-9_.]` starting and ending
 * alphanumeric. Returns the error strings ([] when valid).
 */
export function isQualifiedName(value: string): string[] {
  // Fast path (performance only): a valid name or prefixed name, told by one regex test with no
  // split (label and annotation keys are checked on every write). It accepts exactly what the
  // checks below accept: no '/' and a name of 1..63 matching the name regex, or one '/' between
  // a subdomain prefix of 1..253 and such a name (neither regex admits '/'); anything else takes
  // the full path, which words the errors.
  const slash = value.indexOf('/');
  if (slash < 0 ? value.length <= DNS1123_LABEL_MAX && QUALIFIED_NAME_RE.test(value) : slash <= DNS1123_SUBDOMAIN_MAX && value.length - slash - 1 <= DNS1123_LABEL_MAX && PREFIXED_QUALIFIED_NAME_RE.test(value)) {
    return [];
  }
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDNS1123Subdomain(prefix)) errs.push('prefix part ' + m);
  } else {
    return [
      'a qualified name ' +
        regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > DNS1123_LABEL_MAX) errs.push('name part ' + maxLenError(DNS1123_LABEL_MAX));
  if (!QUALIFIED_NAME_RE.test(name)) errs.push('name part ' + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc'));
  return errs;
}

/** `IsValidLabelValue`: empty, or at most 63 of `[-A-Za-z0-9_.]` starting and ending alphanumeric. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

// ------------------------------------------------------------------ label selectors

/**
 * `selection.Operator` values as apimachinery spells them: `=`, `==`, `!=`, `in`, `notin`,
 * `exists`, `!` (DoesNotExist), `gt`, `lt`.
 */
export type Operator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

/** One `labels.Requirement`: key, operator and values (sorted and de-duplicated by the parser). */
export interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
}

/**
 * A compiled label selector (`labels.Selector`). `requirements` are sorted by key (ByKey),
 * ANDed. `empty()` is true for "everything" (no requirements); the "nothing" selector (from a
 * nil `LabelSelector`) is not empty and matches no labels.
 */
export interface Selector {
  /** True when every requirement holds for `labels` (undefined = no labels). Never throws. */
  matches(labels: Record<string, string> | undefined): boolean;
  /** True when the selector does not restrict (matches everything). */
  empty(): boolean;
  /** `Selector.String()`: requirements joined by `,`, e.g. `app=web,tier in (a,b)`. */
  toString(): string;
  requirements: Requirement[];
  /** True for `labels.Nothing()`. */
  readonly nothing?: boolean;
}

type Labels = Record<string, string>;
const hasOwn = Object.prototype.hasOwnProperty;

function requirementString(r: Requirement): string {
  let s = r.operator === '!' ? '!' + r.key : r.key;
  switch (r.operator) {
    case '=':
      s += '=';
      break;
    case '==':
      s += '==';
      break;
    case '!=':
      s += '!=';
      break;
    case 'in':
      s += ' in ';
      break;
    case 'notin':
      s += ' notin ';
      break;
    case 'gt':
      s += '>';
      break;
    case 'lt':
      s += '<';
      break;
    case 'exists':
    case '!':
      return s;
  }
  const vals = r.values.length === 1 ? r.values[0] : [...r.values].sort().join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${s}(${vals})` : s + vals;
}

const GO_INT = /^[-+]?[0-9]+$/;

/** Compile one requirement into a predicate (`Requirement.Matches`). */
function compileRequirement(r: Requirement): (l: Labels) => boolean {
  const key = r.key;
  switch (r.operator) {
    case '=':
    case '==':
    case 'in': {
      if (r.values.length === 1) {
        const v = r.values[0];
        return (l) => l[key] === v && hasOwn.call(l, key);
      }
      const set = new Set(r.values);
      return (l) => hasOwn.call(l, key) && set.has(l[key]);
    }
    case '!=':
    case 'notin': {
      if (r.values.length === 1) {
        const v = r.values[0];
        return (l) => !hasOwn.call(l, key) || l[key] !== v;
      }
      const set = new Set(r.values);
      return (l) => !hasOwn.call(l, key) || !set.has(l[key]);
    }
    case 'exists':
      return (l) => hasOwn.call(l, key);
    case '!':
      return (l) => !hasOwn.call(l, key);
    case 'gt':
    case 'lt': {
      const bound = GO_INT.test(r.values[0] ?? '') ? Number(r.values[0]) : Number.NaN;
      const gt = r.operator === 'gt';
      return (l) => {
        if (!hasOwn.call(l, key) || Number.isNaN(bound)) return false;
        const x = l[key];
        if (!GO_INT.test(x)) return false;
        const n = Number(x);
        return gt ? n > bound : n < bound;
      };
    }
  }
}

const EMPTY_LABELS: Labels = Object.freeze({}) as Labels;

/** Build a selector from requirements already validated (sorted by key here, stably). */
function makeSelector(reqs: Requirement[]): Selector {
  const requirements = [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const preds = requirements.map(compileRequirement);
  let str: string | undefined;
  let matches: (labels: Labels | undefined) => boolean;
  if (preds.length === 0) matches = () => true;
  else if (preds.length === 1) {
    const p = preds[0];
    matches = (labels) => p(labels ?? EMPTY_LABELS);
  } else {
    matches = (labels) => {
      const l = labels ?? EMPTY_LABELS;
      for (let i = 0; i < preds.length; i++) if (!preds[i](l)) return false;
      return true;
    };
  }
  return {
    requirements,
    matches,
    empty: () => requirements.length === 0,
    toString: () => (str ??= requirements.map(requirementString).join(',')),
  };
}

const EVERYTHING: Selector = makeSelector([]);
const NOTHING: Selector = {
  requirements: [],
  nothing: true,
  matches: () => false,
  empty: () => false,
  toString: () => '',
};

/** `labels.Everything()`: matches all label sets; `empty()` is true; prints as ``. */
export function everything(): Selector {
  return EVERYTHING;
}

/** `labels.Nothing()`: matches nothing; `empty()` is false; prints as ``. */
export function nothing(): Selector {
  return NOTHING;
}

/**
 * `labels.SelectorFromSet`: exact match of every pair (a Service's `spec.selector`, an RC
 * selector). A nil or empty set is Everything. Not validated (the stored object already was).
 */
export function selectorFromSet(set: Record<string, string> | undefined | null): Selector {
  if (!set) return EVERYTHING;
  const reqs: Requirement[] = [];
  for (const k of Object.keys(set)) reqs.push({ key: k, operator: '=', values: [set[k]] });
  return reqs.length ? makeSelector(reqs) : EVERYTHING;
}

/** A `field.Error` rendered as `<path>: Invalid value: "<v>": <detail>` for selector parse errors. */
function invalidText(path: string, value: unknown, detail: string): string {
  return `${path}: Invalid value: ${JSON.stringify(value)}: ${detail}`;
}

/** `ErrorList.ToAggregate().Error()`: one message as is, several as `[a, b]`. */
function aggregate(msgs: string[]): string {
  return msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
}

/**
 * `labels.NewRequirement` validation: the key (qualified name), the value count for the
 * operator, and each value (label value). `path` is the field path the Go code prints: `<nil>`
 * for keys from the string parser. Returns the aggregated message, or undefined when valid.
 */
function requirementError(key: string, op: Operator, vals: string[], keyPath: string): string | undefined {
  const msgs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) msgs.push(invalidText(keyPath, key, keyErrs.join('; ')));
  switch (op) {
    case 'in':
    case 'notin':
      if (vals.length === 0) msgs.push(invalidText('values', vals, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) msgs.push(invalidText('values', vals, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) msgs.push(invalidText('values', vals, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) msgs.push(invalidText('values', vals, "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (!GO_INT.test(v)) msgs.push(invalidText(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  vals.forEach((v, i) => {
    const e = isValidLabelValue(v);
    if (e.length) msgs.push(invalidText(`values[${i}][${key}]`, v, e.join('; ')));
  });
  return msgs.length ? aggregate(msgs) : undefined;
}

// The lexer and parser of labels/selector.go, token for token, so errors read the same.
const enum Tok {
  Error,
  End,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const STRING_TO_TOKEN = new Map<string, Tok>(Object.entries({
  ')': Tok.ClosedPar,
  ',': Tok.Comma,
  '!': Tok.DoesNotExist,
  '==': Tok.DoubleEquals,
  '=': Tok.Equals,
  '>': Tok.GreaterThan,
  in: Tok.In,
  '<': Tok.LessThan,
  '!=': Tok.NotEquals,
  notin: Tok.NotIn,
  '(': Tok.OpenPar,
}));

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

function isWhitespace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

function isSpecial(c: string): boolean {
  return c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<';
}

interface Item {
  tok: Tok;
  lit: string;
}

function lex(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isWhitespace(s[pos])) pos++;
    if (pos >= s.length) {
      items.push({ tok: Tok.End, lit: '' });
      return items;
    }
    if (isSpecial(s[pos])) {
      // scanSpecialSymbol: the longest run of special characters that is a known token.
      let buf = '';
      let last: Item | undefined;
      while (pos < s.length && isSpecial(s[pos])) {
        buf += s[pos];
        const t = STRING_TO_TOKEN.get(buf);
        if (t !== undefined) {
          last = { tok: t, lit: buf };
          pos++;
        } else if (last) break;
        else pos++;
      }
      items.push(last ?? { tok: Tok.Error, lit: `error expected: keyword found '${buf}'` });
      continue;
    }
    let buf = '';
    while (pos < s.length && !isSpecial(s[pos]) && !isWhitespace(s[pos])) buf += s[pos++];
    const t = STRING_TO_TOKEN.get(buf);
    items.push({ tok: t !== undefined ? t : Tok.Identifier, lit: buf });
  }
}

class SelectorParser {
  private pos = 0;
  constructor(private readonly items: Item[]) {}

  private look(values: boolean): Item {
    const it = this.items[this.pos];
    return values && (it.tok === Tok.In || it.tok === Tok.NotIn) ? { tok: Tok.Identifier, lit: it.lit } : it;
  }

  private take(values: boolean): Item {
    const it = this.look(values);
    this.pos++;
    return it;
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.look(true);
      if (tok === Tok.Identifier || tok === Tok.DoesNotExist) {
        const r = this.requirement();
        if (typeof r === 'string') throw new Error(`unable to parse requirement: ${r}`);
        reqs.push(r);
        const t = this.take(true);
        if (t.tok === Tok.End) return reqs;
        if (t.tok === Tok.Comma) {
          const t2 = this.look(true);
          if (t2.tok !== Tok.Identifier && t2.tok !== Tok.DoesNotExist) throw new Error(`found '${t2.lit}', expected: identifier after ','`);
        } else throw new Error(`found '${t.lit}', expected: ',' or 'end of string'`);
      } else if (tok === Tok.End) return reqs;
      else throw new Error(`found '${lit}', expected: !, identifier, or 'end of string'`);
    }
  }

  /** A requirement, or the error text (wrapped by the caller). */
  private requirement(): Requirement | string {
    let op: Operator | undefined;
    let t = this.take(true);
    if (t.tok === Tok.DoesNotExist) {
      op = '!';
      t = this.take(true);
    }
    if (t.tok !== Tok.Identifier) return `found '${t.lit}', expected: identifier`;
    const key = t.lit;
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length) return invalidText('<nil>', key, keyErrs.join('; '));
    const next = this.look(true).tok;
    if (next === Tok.End || next === Tok.Comma) op = op === '!' ? '!' : 'exists';
    if (op === 'exists' || op === '!') {
      return requirementError(key, op, [], 'key') ?? { key, operator: op, values: [] };
    }
    const ot = this.take(false);
    switch (ot.tok) {
      case Tok.In:
        op = 'in';
        break;
      case Tok.Equals:
        op = '=';
        break;
      case Tok.DoubleEquals:
        op = '==';
        break;
      case Tok.GreaterThan:
        op = 'gt';
        break;
      case Tok.LessThan:
        op = 'lt';
        break;
      case Tok.NotIn:
        op = 'notin';
        break;
      case Tok.NotEquals:
        op = '!=';
        break;
      default:
        return `found '${ot.lit}', expected: ${BINARY_OPERATORS}`;
    }
    const values = op === 'in' || op === 'notin' ? this.setValues() : this.exactValue();
    if (typeof values === 'string') return values;
    const sorted = [...new Set(values)].sort();
    return requirementError(key, op, sorted, 'key') ?? { key, operator: op, values: sorted };
  }

  private setValues(): string[] | string {
    const open = this.take(true);
    if (open.tok !== Tok.OpenPar) return `found '${open.lit}' expected: '('`;
    const { tok, lit } = this.look(true);
    if (tok === Tok.Identifier || tok === Tok.Comma) {
      const s = this.identifiersList();
      if (typeof s === 'string') return s;
      if (this.take(true).tok !== Tok.ClosedPar) return `found '${lit}', expected: ')'`;
      return s;
    }
    if (tok === Tok.ClosedPar) {
      this.take(true);
      return [''];
    }
    return `found '${lit}', expected: ',', ')' or identifier`;
  }

  private identifiersList(): string[] | string {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.take(true);
      if (tok === Tok.Identifier) {
        s.add(lit);
        const t2 = this.look(true);
        if (t2.tok === Tok.Comma) continue;
        if (t2.tok === Tok.ClosedPar) return [...s];
        return `found '${t2.lit}', expected: ',' or ')'`;
      }
      if (tok === Tok.Comma) {
        if (s.size === 0) s.add('');
        const t2 = this.look(true).tok;
        if (t2 === Tok.ClosedPar) {
          s.add('');
          return [...s];
        }
        if (t2 === Tok.Comma) s.add('');
        continue;
      }
      return `found '${lit}', expected: ',', or identifier`;
    }
  }

  private exactValue(): string[] | string {
    const { tok } = this.look(true);
    if (tok === Tok.End || tok === Tok.Comma) return [''];
    const t = this.take(true);
    if (t.tok === Tok.Identifier) return [t.lit];
    return `found '${t.lit}', expected: identifier`;
  }
}

/**
 * Parse the string form of a label selector (`kubectl get -l`, `?labelSelector=`), as
 * `labels.Parse` does:
 *
 *     <selector>    ::= <requirement> | <requirement> "," <selector>
 *     <requirement> ::= [!] KEY [ ("in" | "notin") "(" VALUES ")" | ("=" | "==" | "!=") VALUE ]
 *
 * plus `KEY>N` / `KEY<N` (integers). Whitespace is ignored between tokens; `x in ()` means the
 * empty value. The empty string is Everything.
 *
 * Errors: throws `ApiError` 400 BadRequest with the parser's message, e.g.
 * `unable to parse requirement: <nil>: Invalid value: "app:web": name part must consist of ...`
 * or `found ',', expected: !, identifier, or 'end of string'`.
 */
export function parseLabelSelector(s: string): Selector {
  if (s.trim() === '') return EVERYTHING;
  let reqs: Requirement[];
  try {
    reqs = new SelectorParser(lex(s)).parse();
  } catch (e) {
    throw errors.badRequest((e as Error).message);
  }
  return makeSelector(reqs);
}

/**
 * `metav1.LabelSelectorAsSelector`: matchLabels (each `key=value`) AND matchExpressions
 * (`In`, `NotIn`, `Exists`, `DoesNotExist`).
 * - `null`/`undefined` (no selector) is **Nothing**: matches no object. This is why a workload
 *   without `spec.selector` owns no pods and fails the template-labels check.
 * - `{}` (no requirements) is **Everything**: matches every object.
 *
 * Errors: throws `ApiError` 400 BadRequest for an unknown operator
 * (`"Foo" is not a valid label selector operator`) or an invalid key/value (the NewRequirement
 * message). Stored objects were validated, so controllers never see these.
 */
export function selectorFromLabelSelector(ls: LabelSelector | undefined | null): Selector {
  if (ls === undefined || ls === null) return NOTHING;
  const ml = ls.matchLabels ?? {};
  const me = ls.matchExpressions ?? [];
  const keys = Object.keys(ml);
  if (keys.length + me.length === 0) return EVERYTHING;
  const reqs: Requirement[] = [];
  for (const k of keys) {
    const err = requirementError(k, '=', [ml[k]], 'key');
    if (err) throw errors.badRequest(err);
    reqs.push({ key: k, operator: '=', values: [ml[k]] });
  }
  for (const expr of me) {
    let op: Operator;
    switch (expr.operator) {
      case 'In':
        op = 'in';
        break;
      case 'NotIn':
        op = 'notin';
        break;
      case 'Exists':
        op = 'exists';
        break;
      case 'DoesNotExist':
        op = '!';
        break;
      default:
        throw errors.badRequest(`${JSON.stringify(expr.operator ?? '')} is not a valid label selector operator`);
    }
    const vals = [...(expr.values ?? [])];
    const err = requirementError(expr.key, op, vals, 'key');
    if (err) throw errors.badRequest(err);
    reqs.push({ key: expr.key, operator: op, values: vals });
  }
  return makeSelector(reqs);
}

/**
 * `metav1.FormatLabelSelector`, the SELECTOR column of `kubectl get -o wide`: the selector's
 * string form (`app=catalog,tier in (web)`), `<none>` when it has no requirements (nil or `{}`),
 * `<error>` when it does not convert.
 */
export function labelSelectorToString(ls: LabelSelector | undefined | null): string {
  try {
    const s = selectorFromLabelSelector(ls).toString();
    return s.length === 0 ? '<none>' : s;
  } catch {
    return '<error>';
  }
}

// ------------------------------------------------------------------ field selectors

/** One field-selector term: `field=value`, `field==value` or `field!=value`. */
export interface FieldRequirement {
  field: string;
  operator: '=' | '==' | '!=';
  value: string;
}

/**
 * A compiled field selector (`fields.Selector`). `matches` reads the object's selectable fields
 * as the API server's `GetAttrs` builds them (see `fieldValue`).
 */
export interface FieldSelector {
  matches(obj: KubeObject): boolean;
  /** True when there are no terms (matches everything). */
  empty(): boolean;
  /** `Selector.String()`: terms joined by `,`, values escaped. */
  toString(): string;
  requirements: FieldRequirement[];
}

/** The field labels each kind serves, beyond those every kind gets by default. */
const FIELD_LABELS: Record<string, { fields: string[]; message: (f: string) => string }> = {};
const notSupported = (f: string) => `field label not supported: ${f}`;
function registerFields(kind: string, fields: string[]): void {
  FIELD_LABELS[kind] = { fields, message: notSupported };
}
// pkg/apis/core/v1/conversion.go (addConversionFuncs, AddFieldLabelConversionsFor*)
registerFields('Pod', [
  'metadata.name',
  'metadata.namespace',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.podIPs',
  'status.nominatedNodeName',
]);
registerFields('Node', ['metadata.name', 'spec.unschedulable']);
registerFields('ReplicationController', ['metadata.name', 'metadata.namespace', 'status.replicas']);
registerFields('Event', [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'metadata.namespace',
  'metadata.name',
]);
registerFields('Namespace', ['status.phase', 'metadata.name']);
registerFields('Secret', ['type', 'metadata.namespace', 'metadata.name']);
registerFields('Service', ['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type']);
// pkg/apis/batch/v1/conversion.go
registerFields('Job', ['metadata.name', 'metadata.namespace', 'status.successful']);

/**
 * `runtime.DefaultMetaV1FieldSelectorConversion`: kinds without their own conversion accept
 * only name and namespace.
 */
const DEFAULT_FIELD_LABELS = {
  fields: ['metadata.name', 'metadata.namespace'],
  message: (f: string) => `${JSON.stringify(f)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

function fieldLabelsOf(kind: string): { fields: string[]; message: (f: string) => string } {
  return hasOwn.call(FIELD_LABELS, kind) ? FIELD_LABELS[kind] : DEFAULT_FIELD_LABELS;
}

/**
 * True when `kind` serves `field` as a field selector (`kubectl get --field-selector`).
 * Every kind: `metadata.name`, `metadata.namespace` (except Node and Namespace, whose
 * conversions list only `metadata.name`). Pod: `spec.nodeName`, `spec.restartPolicy`,
 * `spec.schedulerName`, `spec.serviceAccountName`, `spec.hostNetwork`, `status.phase`,
 * `status.podIP`, `status.podIPs`, `status.nominatedNodeName`. Event: `involvedObject.*`,
 * `reason`, `reportingComponent`, `source`, `type`. Secret: `type`. Service: `spec.clusterIP`,
 * `spec.type`. Node: `spec.unschedulable`. Namespace: `status.phase`. Job: `status.successful`.
 */
export function fieldSelectorSupported(kind: string, fieldName: string): boolean {
  return fieldLabelsOf(kind).fields.includes(fieldName);
}

/**
 * The error text for an unsupported field of `kind`: `field label not supported: <field>` for
 * kinds with their own conversion (Pod, Node, Event, Secret, Service, Namespace, Job),
 * `"<field>" is not a known field selector: only "metadata.name", "metadata.namespace"` for
 * the rest. The API server answers it as 400 BadRequest.
 */
export function unsupportedFieldMessage(kind: string, fieldName: string): string {
  return fieldLabelsOf(kind).message(fieldName);
}

const CLUSTER_SCOPED = new Set(['Node', 'Namespace', 'PersistentVolume', 'ClusterRole', 'ClusterRoleBinding', 'PriorityClass', 'StorageClass', 'CustomResourceDefinition', 'IngressClass']);

function str(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

/**
 * The value of a selectable field of `obj`, as its registry's `GetAttrs`/`ToSelectableFields`
 * computes it (strings; booleans as `true`/`false`; absent = ``). Fields a kind does not
 * expose read as `` (fields.Set lookups of a missing key), so `x!=v` matches them.
 * Sources: pkg/registry/core/pod/strategy.go, node/strategy.go, event/strategy.go,
 * secret/strategy.go, namespace/strategy.go, service/strategy.go, batch/job/strategy.go.
 */
export function fieldValue(obj: KubeObject, fieldName: string): string {
  const kind = obj.kind;
  if (fieldName === 'metadata.name') return str(obj.metadata?.name);
  if (fieldName === 'metadata.namespace') return CLUSTER_SCOPED.has(kind) ? '' : str(obj.metadata?.namespace);
  const spec = obj.spec ?? {};
  const status = obj.status ?? {};
  switch (kind) {
    case 'Pod':
      switch (fieldName) {
        case 'spec.nodeName':
          return str(spec.nodeName);
        case 'spec.restartPolicy':
          return str(spec.restartPolicy);
        case 'spec.schedulerName':
          return str(spec.schedulerName);
        case 'spec.serviceAccountName':
          return str(spec.serviceAccountName);
        case 'spec.hostNetwork':
          return spec.hostNetwork ? 'true' : 'false';
        case 'status.phase':
          return str(status.phase);
        case 'status.podIP':
          return str(status.podIPs?.[0]?.ip ?? status.podIP);
        case 'status.nominatedNodeName':
          return str(status.nominatedNodeName);
      }
      return '';
    case 'Node':
      return fieldName === 'spec.unschedulable' ? (spec.unschedulable ? 'true' : 'false') : '';
    case 'Namespace':
      return fieldName === 'status.phase' ? str(status.phase) : '';
    case 'Secret':
      return fieldName === 'type' ? str(obj.type) : '';
    case 'Service':
      if (fieldName === 'spec.clusterIP') return str(spec.clusterIP);
      if (fieldName === 'spec.type') return str(spec.type);
      return '';
    case 'Job':
      return fieldName === 'status.successful' ? String(status.succeeded ?? 0) : '';
    case 'ReplicationController':
      return fieldName === 'status.replicas' ? String(status.replicas ?? 0) : '';
    case 'Event': {
      const io = (obj.involvedObject ?? {}) as Record<string, unknown>;
      if (fieldName.startsWith('involvedObject.')) return str(io[fieldName.slice('involvedObject.'.length)]);
      if (fieldName === 'reason') return str(obj.reason);
      if (fieldName === 'type') return str(obj.type);
      if (fieldName === 'source') return str((obj.source as { component?: string } | undefined)?.component);
      if (fieldName === 'reportingComponent') return str(obj.reportingComponent);
      return '';
    }
  }
  return '';
}

type Getter = (o: KubeObject) => string;

/** A getter for one field, specialised per kind on first use (watch fan-out calls it per write). */
function cachedGetter(fieldName: string): Getter {
  const byKind = new Map<string, Getter>();
  return (o) => {
    let g = byKind.get(o.kind);
    if (!g) {
      g = fieldGetter(o.kind, fieldName);
      byKind.set(o.kind, g);
    }
    return g(o);
  };
}

/** The direct reader of `fieldName` for objects of `kind` (same values as `fieldValue`). */
function fieldGetter(kind: string, fieldName: string): Getter {
  switch (fieldName) {
    case 'metadata.name':
      return (o) => str(o.metadata?.name);
    case 'metadata.namespace':
      return CLUSTER_SCOPED.has(kind) ? () => '' : (o) => str(o.metadata?.namespace);
  }
  if (kind === 'Pod') {
    switch (fieldName) {
      case 'spec.nodeName':
        return (o) => str(o.spec?.nodeName);
      case 'status.phase':
        return (o) => str(o.status?.phase);
    }
  }
  return (o) => fieldValue(o, fieldName);
}

/** `fields.EscapeValue`: `\` -> `\\`, `,` -> `\,`, `=` -> `\=`. */
export function escapeFieldValue(v: string): string {
  return v.replace(/[\\,=]/g, (c) => '\\' + c);
}

/** `fields.UnescapeValue`, with its error texts. Throws Error(message). */
function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new Error(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') throw new Error(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new Error('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** `fields.splitTerms`: split on unescaped commas, keeping escapes. */
function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

/** `fields.splitTerm`: the first `!=`, `==` or `=` splits; the left side is never unescaped. */
function splitTerm(term: string): FieldRequirement | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) return { field: term.slice(0, i), operator: op, value: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/**
 * Parse a field selector (`kubectl get --field-selector`, `?fieldSelector=`) as
 * `fields.ParseSelector`: comma-separated `field=value`, `field==value`, `field!=value`; `\`
 * escapes `,`, `=` and `\` in values; terms are sorted; the empty string is Everything.
 *
 * With `kind`, every field must be one the kind serves (`fieldSelectorSupported`), as the
 * server's field-label conversion checks. Without it only the syntax is checked.
 *
 * Errors: throws `ApiError` 400 BadRequest: `invalid selector: '<s>'; can't understand '<term>'`,
 * `invalid field selector: invalid escape sequence: \x`, `field label not supported: <field>`
 * (see `unsupportedFieldMessage`).
 */
export function parseFieldSelector(s: string, kind?: string): FieldSelector {
  const parts = splitTerms(s).sort();
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw errors.badRequest(`invalid selector: '${s}'; can't understand '${part}'`);
    try {
      t.value = unescapeFieldValue(t.value);
    } catch (e) {
      throw errors.badRequest((e as Error).message);
    }
    if (kind !== undefined && !fieldSelectorSupported(kind, t.field)) throw errors.badRequest(unsupportedFieldMessage(kind, t.field));
    reqs.push(t);
  }
  const preds = reqs.map((r) => {
    const get = cachedGetter(r.field);
    const v = r.value;
    return r.operator === '!=' ? (o: KubeObject) => get(o) !== v : (o: KubeObject) => get(o) === v;
  });
  let text: string | undefined;
  return {
    requirements: reqs,
    empty: () => reqs.length === 0,
    matches:
      preds.length === 0
        ? () => true
        : preds.length === 1
          ? preds[0]
          : (o) => {
              for (let i = 0; i < preds.length; i++) if (!preds[i](o)) return false;
              return true;
            },
    toString: () => (text ??= reqs.map((r) => `${r.field}${r.operator === '!=' ? '!=' : '='}${escapeFieldValue(r.value)}`).join(',')),
  };
}
