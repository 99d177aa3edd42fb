/**
 * Which panel the display shows, and when it moves on. Panels rotate every PANEL_ROTATION_MS. A live
 * event jumps to its panel and holds it for EVENT_HOLD_MS from the jump; more events of the shown panel
 * neither extend the hold nor jump again, and once the hold is over the rotation resumes. A panel jumped
 * to is not jumped to again until every other panel has had its turn, so a busy scanning morning still
 * reaches 作业成绩. A panel chosen by hand (outside kiosk mode) is held like a jump.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ScreenPanel } from '../../shared/contract/large-screen';
import { EVENT_HOLD_MS, nextPanel, PANEL_ROTATION_MS } from './panel-data';

type Shown = { panel: ScreenPanel | null; until: number };

export function usePanelRotation(panels: readonly ScreenPanel[]) {
  const [shown, setShown] = useState<Shown>(() => ({ panel: null, until: Date.now() + PANEL_ROTATION_MS }));
  const shownRef = useRef(shown);
  const lastJump = useRef(new Map<ScreenPanel, number>());
  const panelsRef = useRef(panels);
  useEffect(() => {
    panelsRef.current = panels;
  }, [panels]);
  const show = useCallback((next: Shown) => {
    shownRef.current = next;
    setShown(next);
  }, []);

  // The shown panel while the screen has it, else its first.
  const panel = shown.panel !== null && panels.includes(shown.panel) ? shown.panel : (panels[0] ?? null);
  const key = panels.join(',');
  useEffect(() => {
    const order = key === '' ? [] : (key.split(',') as ScreenPanel[]);
    if (panel === null || order.length < 2) return;
    const timer = setTimeout(
      () => show({ panel: nextPanel(order, panel), until: Date.now() + PANEL_ROTATION_MS }),
      Math.max(0, shown.until - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [key, panel, shown.until, show]);

  /** A live event of this panel: jump to it, unless it is shown or had its jump this round. */
  const jump = useCallback(
    (target: ScreenPanel) => {
      const at = Date.now();
      const current = shownRef.current.panel ?? panelsRef.current[0] ?? null;
      if (target === current) return;
      const last = lastJump.current.get(target);
      const round = EVENT_HOLD_MS + Math.max(0, panelsRef.current.length - 1) * PANEL_ROTATION_MS;
      if (last !== undefined && at < last + round) return;
      lastJump.current.set(target, at);
      show({ panel: target, until: at + EVENT_HOLD_MS });
    },
    [show],
  );

  /** Chosen by hand: shown and held. */
  const choose = useCallback((target: ScreenPanel) => show({ panel: target, until: Date.now() + EVENT_HOLD_MS }), [show]);

  return { panel, jump, choose };
}
