import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_HOLD_MS, PANEL_ROTATION_MS } from '../../../src/features/large-screen/panel-data';
import { usePanelRotation } from '../../../src/features/large-screen/use-panel-rotation';
import type { ScreenPanel } from '../../../src/shared/contract/large-screen';

const PANELS: ScreenPanel[] = ['pipeline', 'marking', 'results'];

function wall() {
  return renderHook(() => usePanelRotation(PANELS));
}

function advance(ms: number) {
  act(() => void vi.advanceTimersByTime(ms));
}

describe('the wall screen’s panel rotation', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('rotates through every panel on its schedule', () => {
    const screen = wall();
    expect(screen.result.current.panel).toBe('pipeline');
    advance(PANEL_ROTATION_MS);
    expect(screen.result.current.panel).toBe('marking');
    advance(PANEL_ROTATION_MS);
    expect(screen.result.current.panel).toBe('results');
    advance(PANEL_ROTATION_MS);
    expect(screen.result.current.panel).toBe('pipeline');
  });

  it('jumps to an event’s panel and holds it from the jump, not from the latest event', () => {
    const screen = wall();
    advance(PANEL_ROTATION_MS); // 阅卷进度
    act(() => screen.result.current.jump('pipeline'));
    expect(screen.result.current.panel).toBe('pipeline');
    // Pages keep arriving every second: the hold is not extended.
    for (let s = 1; s < EVENT_HOLD_MS / 1000; s += 1) {
      advance(1000);
      act(() => screen.result.current.jump('pipeline'));
      expect(screen.result.current.panel).toBe('pipeline');
    }
    advance(1000);
    expect(screen.result.current.panel).toBe('marking');
  });

  it('reaches 作业成绩 on a busy morning: events of one panel do not pull the wall back before every panel had its turn', () => {
    const screen = wall();
    act(() => screen.result.current.jump('marking'));
    const seen = new Set<ScreenPanel | null>();
    // Three minutes of a page every second and a marking event every second.
    for (let s = 0; s < 180; s += 1) {
      advance(1000);
      act(() => {
        screen.result.current.jump('pipeline');
        screen.result.current.jump('marking');
      });
      seen.add(screen.result.current.panel);
    }
    expect(seen).toContain('results');
    expect(seen).toContain('pipeline');
    expect(seen).toContain('marking');
  });

  it('jumps again once the other panels had their turn', () => {
    const screen = wall();
    act(() => screen.result.current.jump('marking'));
    advance(EVENT_HOLD_MS); // 作业成绩
    expect(screen.result.current.panel).toBe('results');
    act(() => screen.result.current.jump('marking'));
    expect(screen.result.current.panel).toBe('results');
    advance(PANEL_ROTATION_MS); // 今日作业进度
    act(() => screen.result.current.jump('marking'));
    expect(screen.result.current.panel).toBe('pipeline');
    advance(PANEL_ROTATION_MS); // 阅卷进度 by rotation
    advance(PANEL_ROTATION_MS); // 作业成绩
    expect(screen.result.current.panel).toBe('results');
    act(() => screen.result.current.jump('marking'));
    expect(screen.result.current.panel).toBe('marking');
  });
});
