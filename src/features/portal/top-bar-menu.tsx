/**
 * The top bar's drop-down menus (账号菜单, 数据中心, the phone's 菜单) in plain markup with the look of
 * Semi's Dropdown: Semi's Dropdown and Navigation (with Tooltip, Avatar and their CSS, about 33 KiB gz)
 * would load with every logged-in page. Opens on hover or on a click as Semi's did; closes on leaving,
 * Escape, a click elsewhere or a choice. The items are menuitem buttons.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import styles from './top-bar.module.css';

export type MenuEntry =
  | { kind: 'item'; key: string; text: string; icon?: ReactNode; selected?: boolean; onSelect: () => void }
  | { kind: 'title'; key: string; text: string }
  | { kind: 'divider'; key: string };

type Props = {
  entries: readonly MenuEntry[];
  /** hover: opens while the pointer is over the trigger or the menu (and on Enter); click: toggles. */
  trigger: 'hover' | 'click';
  align: 'left' | 'right';
  /** The trigger: a button-like element. */
  children: ReactNode;
  className?: string;
};

const CLOSE_DELAY_MS = 100;

export function MenuPopup({ entries, trigger, align, children, className }: Props) {
  const [open, setOpen] = useState(false);
  const holder = useRef<HTMLSpanElement>(null);
  const closing = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancelClose = () => {
    if (closing.current) clearTimeout(closing.current);
    closing.current = null;
  };
  useEffect(() => cancelClose, []);
  useEffect(() => {
    if (!open) return;
    const away = (event: PointerEvent) => {
      if (!holder.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  const hover =
    trigger === 'hover'
      ? {
          onMouseEnter: () => {
            cancelClose();
            setOpen(true);
          },
          onMouseLeave: () => {
            cancelClose();
            closing.current = setTimeout(() => setOpen(false), CLOSE_DELAY_MS);
          },
        }
      : {};
  const onKeyDown = (event: KeyboardEvent) => {
    if (trigger !== 'hover') return;
    if ((event.key === 'Enter' || event.key === ' ') && event.target === event.currentTarget.firstElementChild) {
      event.preventDefault();
      setOpen((value) => !value);
    }
  };

  return (
    <span ref={holder} className={`${styles.menuHolder} ${className ?? ''}`} {...hover}>
      <span
        className={styles.trigger}
        onClick={trigger === 'click' ? () => setOpen((value) => !value) : undefined}
        onKeyDownCapture={onKeyDown}
      >
        {children}
      </span>
      {open ? (
        <span className={align === 'right' ? `${styles.popup} ${styles.popupRight}` : styles.popup}>
          <ul role="menu" className={styles.menu}>
            {entries.map((entry) =>
              entry.kind === 'divider' ? (
                <li key={entry.key} role="separator" className={styles.divider} />
              ) : entry.kind === 'title' ? (
                <li key={entry.key} role="presentation" className={styles.title}>
                  {entry.text}
                </li>
              ) : (
                <li key={entry.key} role="none">
                  <button
                    type="button"
                    role="menuitem"
                    className={entry.selected ? `${styles.item} ${styles.itemSelected}` : styles.item}
                    onClick={() => {
                      setOpen(false);
                      entry.onSelect();
                    }}
                  >
                    {entry.icon}
                    {entry.text}
                  </button>
                </li>
              ),
            )}
          </ul>
        </span>
      ) : null}
    </span>
  );
}
