/**
 * A menu of actions on one thing (a node, a unit, a pod): a button that opens a list of menu
 * items, each showing the shell line it runs. Keyboard: Enter/Space or ArrowDown opens it and
 * focuses the first item, ArrowUp/ArrowDown/Home/End move, Enter runs, Escape closes and gives
 * focus back. `ActionArea` wraps a row so a right-click (or the context-menu key) on it opens the
 * same menu.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { runAction, type Action } from './actions';
import './actions.css';

/** Props of `ActionMenu`. */
export interface ActionMenuProps {
  /** What the menu acts on, for its accessible name (`kubelet.service on k8s-lab-worker`). */
  target: string;
  actions: Action[];
  /** The button's visible text (default `Actions`). */
  label?: string;
  /** Opened from outside (a right-click on the row). */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/** The actions button and its menu. */
export function ActionMenu({ target, actions, label = 'Actions', open: openProp, onOpenChange }: ActionMenuProps) {
  const [openState, setOpenState] = useState(false);
  const open = openProp ?? openState;
  const setOpen = useCallback(
    (v: boolean) => {
      setOpenState(v);
      onOpenChange?.(v);
    },
    [onOpenChange],
  );
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  const items = (): HTMLButtonElement[] => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not([aria-disabled="true"])') ?? [])];

  // The menu is fixed to the viewport next to its button (scrolling panels and the terminal
  // would clip it otherwise): below it when the whole list fits there, else on the side with more
  // room; never past the viewport's edge (it scrolls inside when taller than that room).
  const [place, setPlace] = useState<React.CSSProperties>({});
  const reposition = useCallback(() => {
    if (!button.current) return;
    const r = button.current.getBoundingClientRect();
    const below = window.innerHeight - r.bottom - 8;
    const above = r.top - 8;
    // The list's full height (scrollHeight ignores max-height); before it is drawn, assume 260px.
    const need = menu.current ? menu.current.scrollHeight + 2 : 260;
    const right = Math.max(4, window.innerWidth - r.right);
    const room = window.innerHeight - 16;
    if (need <= below) setPlace({ position: 'fixed', right, top: r.bottom + 4, maxHeight: below });
    else if (need <= above) setPlace({ position: 'fixed', right, bottom: window.innerHeight - r.top + 4, maxHeight: above });
    // Fits on neither side: as low as it fits whole (over its button), or the full height, scrolling.
    else setPlace({ position: 'fixed', right, top: Math.max(8, window.innerHeight - 8 - need), maxHeight: room });
  }, []);
  useLayoutEffect(() => {
    if (open) reposition();
  }, [open, reposition]);

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    // The panel under it scrolled or the window changed size: follow the button.
    const onScroll = (e: Event) => {
      if (!menu.current?.contains(e.target as Node)) reposition();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', reposition);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', reposition);
    };
  }, [open, setOpen, reposition]);

  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };

  const onMenuKey = (e: React.KeyboardEvent) => {
    const list = items();
    const i = list.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown') list[(i + 1) % list.length]?.focus();
    else if (e.key === 'ArrowUp') list[(i - 1 + list.length) % list.length]?.focus();
    else if (e.key === 'Home') list[0]?.focus();
    else if (e.key === 'End') list[list.length - 1]?.focus();
    else if (e.key === 'Escape') close(true);
    else if (e.key === 'Tab') close(false);
    else return;
    if (e.key !== 'Tab') e.preventDefault();
    e.stopPropagation();
  };

  return (
    <span className="action-menu">
      <button
        ref={button}
        type="button"
        className="btn btn-small action-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={`${label} on ${target}`}
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        {label} <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <ul ref={menu} id={id} className="action-menu-list" style={place} role="menu" aria-label={`${label} on ${target}`} onKeyDown={onMenuKey}>
          {actions.map((a) => (
            <li key={a.id} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={`action-item${a.danger ? ' is-danger' : ''}`}
                aria-disabled={a.disabled ? true : undefined}
                data-action={a.id}
                title={a.disabled ? `Not now: ${a.disabled}` : `Runs: ${a.line}`}
                onClick={() => {
                  if (a.disabled) return;
                  close(true);
                  runAction(a);
                }}
              >
                <span className="action-label">
                  {a.danger ? (
                    <span className="action-danger" aria-label="breaks something">
                      ⚠
                    </span>
                  ) : null}
                  {a.label}
                  {a.disabled ? <span className="action-why"> ({a.disabled})</span> : null}
                </span>
                <code className="action-line">{a.line}</code>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </span>
  );
}

/** A row whose right-click (or context-menu key) opens its action menu; the menu sits at its end. */
export function ActionArea({ target, actions, children, className, label }: { target: string; actions: Action[]; children: ReactNode; className?: string; label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div
      className={`action-area${className ? ` ${className}` : ''}`}
      onContextMenu={(e) => {
        if ((e.target as HTMLElement).closest('.action-menu-list')) return;
        e.preventDefault();
        setOpen(true);
      }}
    >
      <div className="action-area-body">{children}</div>
      <ActionMenu target={target} actions={actions} open={open} onOpenChange={setOpen} {...(label ? { label } : {})} />
    </div>
  );
}
