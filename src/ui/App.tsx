/** The application shell. For now: the header and a placeholder while the engine is built. */

const LAYERS = [
  { n: '1', name: 'systemd', note: 'PID 1 on every node' },
  { n: '2', name: 'containerd, kubelet', note: 'restarted by systemd' },
  { n: '3', name: 'control plane', note: 'static pods, run by the kubelet' },
  { n: '4', name: 'your apps', note: 'reconciled by controllers' },
];

export function App() {
  return (
    <div className="app">
      <header className="app-header">
        <svg className="app-logo" viewBox="0 0 32 32" aria-hidden="true">
          <polygon points="16,2 28.1,9 28.1,23 16,30 3.9,23 3.9,9" />
          <circle cx="16" cy="16" r="5" />
        </svg>
        <div>
          <h1>Cluster Playground</h1>
          <p className="app-subtitle">A Kubernetes cluster you can break, in a browser tab</p>
        </div>
      </header>

      <main className="app-main">
        <section className="placeholder" aria-labelledby="placeholder-title">
          <p className="placeholder-status" role="status">
            <span className="dot" aria-hidden="true" />
            Under construction
          </p>
          <h2 id="placeholder-title">The simulation engine is being built</h2>
          <p className="placeholder-text">
            A simulated kind cluster will run here, in a Web Worker: delete pods, kill kubelets, stop
            nodes or type <code>kubectl</code>, and watch each layer bring the cluster back. The
            cluster map, owner graph, timeline, editor and terminal arrive once the engine is in place.
          </p>
          <ol className="layers" aria-label="The four layers the playground will show">
            {LAYERS.map((l) => (
              <li key={l.n}>
                <span className="layer-n">{l.n}</span>
                <span className="layer-text">
                  <span className="layer-name">{l.name}</span>
                  <span className="layer-note">{l.note}</span>
                </span>
              </li>
            ))}
          </ol>
        </section>
      </main>
    </div>
  );
}
