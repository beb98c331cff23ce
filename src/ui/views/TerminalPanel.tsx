/**
 * The bottom panel under the map: the terminal (xterm.js, src/ui/terminal/Terminal.tsx), loaded
 * on demand in its own chunk so xterm never enters the initial bundle. Until the chunk is there
 * (or if it fails to load) the one-line command bar stands in, running the same lines.
 *
 * The panel's height follows a drag on its top edge (a separator: pointer, or arrow keys when
 * focused), kept in localStorage once the person has chosen one (a double-click forgets it); until
 * then it is the default, a fifth of the window, so the map stays usable at 1280x720 and the page
 * opened on a laptop and then on a 1080p projector gets the projector's default, not the laptop's.
 */
import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { CommandBar } from './CommandBar';
import { useSim } from '../state/store';
import { useHydrated } from '../state/hydration';

const ShellTerminal = lazy(() => import('../terminal/Terminal'));

/** localStorage key of the folded state ('1' = folded down to the title bar). */
const COLLAPSED_KEY = 'cluster-playground:terminal-collapsed';
/** localStorage key of the panel height (CSS px). */
const HEIGHT_KEY = 'cluster-playground:terminal-height';
/** Bounds of the panel height (CSS px). */
const MIN_HEIGHT = 120;
/** Arrow-key step of the separator (CSS px). */
const STEP = 24;

/**
 * Wall ms after which the terminal chunk loads even if the boot has not ended yet (a boot that
 * takes very long on a slow machine). Normally it loads AFTER_BOOT_MS after the cluster has booted
 * (the bookshop drawn and Available), so xterm (about 90 KB gzip) does not compete with the worker
 * and the first draws for the network and the main thread while the cluster boots.
 */
const LOAD_AFTER_MS = 10_000;
/** Wall ms between the end of the boot and the terminal chunk's load (the page draws the booted cluster meanwhile). */
const AFTER_BOOT_MS = 500;

/** True once the terminal chunk may load (and from then on): see LOAD_AFTER_MS and AFTER_BOOT_MS. */
function useDeferredLoad(): boolean {
  const booted = useSim((s) => s.connected && !s.run.booting);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    const t = window.setTimeout(() => setReady(true), booted ? AFTER_BOOT_MS : LOAD_AFTER_MS);
    return () => window.clearTimeout(t);
  }, [ready, booted]);
  return ready;
}

/** Falls back to the command bar when the terminal's chunk cannot load. */
class FallbackOnError extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <CommandBar /> : this.props.children;
  }
}

function maxHeight(): number {
  return Math.max(MIN_HEIGHT, Math.round(window.innerHeight * 0.7));
}

/**
 * The first height: a fifth of the window (144 px at 1280x720: the title bar and five lines of
 * 15 px text, so the map and the editor keep most of a laptop screen; 216 px on a 1080p
 * projector), at most 360.
 */
function defaultHeight(): number {
  return Math.round(Math.min(360, Math.max(MIN_HEIGHT, window.innerHeight * 0.2)));
}

function initialHeight(): number {
  try {
    const v = Number(localStorage.getItem(HEIGHT_KEY));
    if (Number.isFinite(v) && v >= MIN_HEIGHT) return Math.min(v, maxHeight());
  } catch {
    // no storage: the default
  }
  return defaultHeight();
}

/**
 * The terminal, or the command bar while it loads. While the prerendered page hydrates
 * (src/ui/state/hydration.ts) it is drawn without what depends on this browser (its stored height,
 * the window's height): the CSS default height, the same a fifth of the window as `defaultHeight`.
 */
export function TerminalPanel() {
  const hydrated = useHydrated();
  return hydrated ? <LiveTerminalPanel /> : <PrerenderedTerminalPanel />;
}

/** The panel as the build prerenders it (and hydration first draws it): the command bar at the default height. */
function PrerenderedTerminalPanel() {
  return (
    <section className="term-panel" aria-label="Terminal" id="terminal" tabIndex={-1} style={{ height: `clamp(${MIN_HEIGHT}px, 20vh, 360px)` }}>
      <div className="term-resizer" role="separator" aria-orientation="horizontal" aria-label="Resize the terminal" tabIndex={0} title="Drag to resize the terminal (double-click: default height)" />
      <CommandBar />
    </section>
  );
}

/** The panel in the browser: resizable, foldable, the terminal once its chunk is loaded. */
function LiveTerminalPanel() {
  const [height, setHeight] = useState(initialHeight);
  const load = useDeferredLoad();
  const [collapsed, setCollapsed] = useState(() => {
    try {
      return localStorage.getItem(COLLAPSED_KEY) === '1';
    } catch {
      return false;
    }
  });
  const toggle = () =>
    setCollapsed((c) => {
      try {
        localStorage.setItem(COLLAPSED_KEY, c ? '0' : '1');
      } catch {
        // not kept
      }
      return !c;
    });
  const clamp = (h: number) => Math.round(Math.min(maxHeight(), Math.max(MIN_HEIGHT, h)));
  /** Keep a height the person chose (`undefined`: forget it, back to the window's default). */
  const keep = (h: number | undefined) => {
    try {
      if (h === undefined) localStorage.removeItem(HEIGHT_KEY);
      else localStorage.setItem(HEIGHT_KEY, String(h));
    } catch {
      // not kept
    }
  };
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const startY = e.clientY;
    const startH = height;
    const target = e.currentTarget;
    target.setPointerCapture(e.pointerId);
    let last = startH;
    const move = (ev: PointerEvent) => {
      last = clamp(startH + (startY - ev.clientY));
      setHeight(last);
    };
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
      if (last !== startH) keep(last);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };
  return (
    <section className={`term-panel${collapsed && load ? ' is-collapsed' : ''}`} aria-label="Terminal" id="terminal" tabIndex={-1} style={collapsed && load ? undefined : { height }}>
      <div
        className="term-resizer"
        role="separator"
        aria-orientation="horizontal"
        aria-label="Resize the terminal"
        aria-valuemin={MIN_HEIGHT}
        aria-valuemax={maxHeight()}
        aria-valuenow={height}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
          const h = clamp(height + (e.key === 'ArrowUp' ? STEP : -STEP));
          setHeight(h);
          keep(h);
          e.preventDefault();
        }}
        onDoubleClick={() => {
          setHeight(defaultHeight());
          keep(undefined);
        }}
        title="Drag to resize the terminal (double-click: default height)"
      />
      {load ? (
        <FallbackOnError>
          <Suspense fallback={<CommandBar />}>
            <ShellTerminal collapsed={collapsed} onToggleCollapsed={toggle} />
          </Suspense>
        </FallbackOnError>
      ) : (
        <CommandBar />
      )}
    </section>
  );
}
