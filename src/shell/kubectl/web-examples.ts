/**
 * `kubectl apply -f https://k8s.io/examples/...`: what kubectl's `-f URL` reads on the
 * playground's laptop, which has no internet.
 *
 * Real kubectl fetches a URL given to `-f` over HTTP (cli-runtime builder.go `FilenameParam`:
 * an argument starting with `http://` or `https://` becomes a `URLVisitor`; visitor.go
 * `readHttpWithRetries` does an `http.Get`, up to 3 attempts one second apart for a network
 * error or a 5xx, and any status other than 200 is the error `unable to read URL %q, server
 * reported %s, status code=%d`). The kubernetes.io tutorials and task pages tell learners to run
 * such lines (`kubectl apply -f https://k8s.io/examples/application/deployment.yaml`), so the
 * playground carries the example tree they use: copies of kubernetes/website's
 * `content/en/examples/` (CC BY 4.0, The Kubernetes Authors; fixtures/kubernetes-website-examples/
 * says which files, from which commit, and scripts/gen-web-examples.mjs bundles them into
 * web-examples.json, part of the shell's chunk that the browser loads on demand).
 *
 * Three URL prefixes lead to that tree, as on the real web: `https://kubernetes.io/examples/X`
 * (the site serves content/en/examples/X), `https://k8s.io/examples/X` (k8s.io redirects there)
 * and `https://raw.githubusercontent.com/kubernetes/website/main/content/en/examples/X`
 * (`http://` too, which both hosts redirect to https). A bundled file is served as it is. Those
 * three hosts answer every other path as the real ones answer a file they do not have: a 404
 * (not retried). That is exact for a missing example; for anything else on them (another
 * repository on raw.githubusercontent.com, a docs page) it is the playground's limit, chosen so
 * that a host which just served a file does not then fail to resolve. Every other host needs the
 * internet, which the laptop does not have: its resolver knows no such name, so Go's `http.Get`
 * fails with `dial tcp: lookup HOST on 127.0.0.53:53: no such host` (a *url.Error), which
 * kubectl's `cmdutil.CheckErr` prints as `Unable to connect to the server: <the dial error>`
 * (helpers.go `StandardErrorMessage`). (Real kubectl takes about two seconds to say so, three
 * attempts one second apart; the playground answers at once.)
 */
import files from './web-examples.json';

/** The bundled examples: path under kubernetes/website's content/en/examples/ -> file text (byte for byte). */
export const WEB_EXAMPLES: Readonly<Record<string, string>> = files;

/** Where the example tree is served: host, and the path prefix the tree starts at. */
const EXAMPLE_TREES: readonly { host: string; prefix: string }[] = [
  { host: 'k8s.io', prefix: '/examples/' },
  { host: 'kubernetes.io', prefix: '/examples/' },
  { host: 'raw.githubusercontent.com', prefix: '/kubernetes/website/main/content/en/examples/' },
];

/**
 * The laptop's DNS server as Go's resolver names it in a lookup error: systemd-resolved's stub
 * listener, the nameserver in /etc/resolv.conf of a stock Ubuntu laptop (the playground's laptop
 * runs Ubuntu 24.04: src/shell/node-system.ts HOST_KERNEL_VERSION).
 */
export const LAPTOP_DNS_SERVER = '127.0.0.53:53';

/** What reading a `-f` URL gave: the body, or the error text kubectl prints. */
export type UrlRead = { ok: true; text: string } | { ok: false; error: string };

/** True when kubectl's builder treats a `-f` argument as a URL (builder.go `FilenameParam`). */
export function isManifestUrl(arg: string): boolean {
  return arg.startsWith('http://') || arg.startsWith('https://');
}

/**
 * Read a `-f` URL as kubectl on the playground's laptop does: a bundled kubernetes.io example,
 * a 404 for anything else on the example hosts, or the failed DNS lookup of a laptop without
 * internet for any other host.
 */
export function readManifestUrl(url: string): UrlRead {
  const m = /^https?:\/\/([^/?#]*)([^?#]*)/.exec(url);
  const authority = m?.[1] ?? '';
  const path = m?.[2] ?? '';
  // Go's net/url: the host without userinfo and port; `http.Get` refuses an empty one.
  const host = authority
    .replace(/^.*@/, '')
    .replace(/:\d*$/, '')
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  if (host === '') return { ok: false, error: 'Unable to connect to the server: http: no Host in request URL' };
  // No lookup for these: the loopback has nothing listening on the port (the answer Go's dial
  // gets, which StandardErrorMessage words as a refused server, naming the URL's host[:port]);
  // any other address has no route without a network.
  if (host === 'localhost' || /^127\.|^::1$/.test(host)) {
    return { ok: false, error: `The connection to the server ${authority.replace(/^.*@/, '')} was refused - did you specify the right host or port?` };
  }
  if (/^[\d.]+$|:/.test(host)) {
    const port = /:(\d+)$/.exec(authority.replace(/^\[.*\]/, ''))?.[1] ?? (url.startsWith('https') ? '443' : '80');
    const addr = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    return { ok: false, error: `Unable to connect to the server: dial tcp ${addr}: connect: network is unreachable` };
  }
  if (!EXAMPLE_TREES.some((t) => t.host === host)) {
    return { ok: false, error: `Unable to connect to the server: dial tcp: lookup ${host} on ${LAPTOP_DNS_SERVER}: no such host` };
  }
  const tree = EXAMPLE_TREES.find((t) => t.host === host && path.startsWith(t.prefix));
  const text = tree ? WEB_EXAMPLES[path.slice(tree.prefix.length)] : undefined;
  if (text === undefined) return { ok: false, error: `error: unable to read URL ${JSON.stringify(url)}, server reported 404 Not Found, status code=404` };
  return { ok: true, text };
}
