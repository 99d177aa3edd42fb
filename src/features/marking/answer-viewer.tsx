/**
 * The answer image of /write, large: zoom with the wheel or the buttons (within the spec's 0.01 to 100),
 * pan by dragging, fit to the viewport on load. With a marking tool chosen, a click places a tick, a
 * cross or a comment where it lands, as fractions of the image's width and height; marks keep their
 * size on screen whatever the zoom.
 */
import { IconMinus, IconPlus } from '@douyinfe/semi-icons';
import { Button, Spin } from '@douyinfe/semi-ui-19';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import type { Annotation } from '../../shared/contract/marking';
import { fitTransform, IDENTITY, toFraction, zoomAbout, ZOOM_STEP, type ViewTransform } from './image-zoom';
import styles from './write.module.css';

export type MarkTool = 'move' | 'tick' | 'cross' | 'comment';

/** Below this many pixels of pointer travel a press is a click, above it a drag. */
const DRAG_THRESHOLD_PX = 4;
/** Fitting never enlarges a small answer more than this. */
const MAX_FIT_SCALE = 3;

type Props = {
  url: string | null;
  failed: boolean;
  onRetry: () => void;
  annotations: Annotation[];
  tool: MarkTool;
  onPlace: (x: number, y: number) => void;
  label: string;
};

export function AnswerViewer({ url, failed, onRetry, annotations, tool, onPlace, label }: Props) {
  const viewport = useRef<HTMLDivElement>(null);
  const image = useRef<HTMLImageElement>(null);
  const [view, setView] = useState<ViewTransform>(IDENTITY);
  const drag = useRef<{ x: number; y: number; startX: number; startY: number; moved: boolean } | null>(null);
  const justDragged = useRef(false);

  const fit = useCallback(() => {
    const img = image.current;
    const box = viewport.current;
    if (!img || !box) return;
    const fitted = fitTransform(img.naturalWidth, img.naturalHeight, box.clientWidth, box.clientHeight);
    if (fitted.scale <= MAX_FIT_SCALE) return setView(fitted);
    setView(fitTransform(img.naturalWidth * MAX_FIT_SCALE, img.naturalHeight * MAX_FIT_SCALE, box.clientWidth, box.clientHeight));
  }, []);

  const zoomBy = useCallback((factor: number, clientX?: number, clientY?: number) => {
    const box = viewport.current;
    const rect = box?.getBoundingClientRect();
    const px = clientX !== undefined && rect ? clientX - rect.left : (box?.clientWidth ?? 0) / 2;
    const py = clientY !== undefined && rect ? clientY - rect.top : (box?.clientHeight ?? 0) / 2;
    setView((v) => zoomAbout(v, factor, px, py));
  }, []);

  // A native listener: React's wheel listener is passive and could not keep the page from scrolling.
  useEffect(() => {
    const box = viewport.current;
    if (!box) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      zoomBy(event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP, event.clientX, event.clientY);
    };
    box.addEventListener('wheel', onWheel, { passive: false });
    return () => box.removeEventListener('wheel', onWheel);
  }, [zoomBy]);

  const onPointerDown = (event: ReactPointerEvent) => {
    if (event.button !== 0) return;
    drag.current = { x: view.x, y: view.y, startX: event.clientX, startY: event.clientY, moved: false };
  };
  const onPointerMove = (event: ReactPointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const dx = event.clientX - d.startX;
    const dy = event.clientY - d.startY;
    if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
    if (!d.moved) (event.currentTarget as HTMLElement).setPointerCapture?.(event.pointerId);
    d.moved = true;
    setView((v) => ({ ...v, x: d.x + dx, y: d.y + dy }));
  };
  const onPointerUp = () => {
    justDragged.current = drag.current?.moved ?? false;
    drag.current = null;
  };

  const onClick = (event: ReactMouseEvent) => {
    if (justDragged.current) {
      justDragged.current = false;
      return;
    }
    if (tool === 'move' || !image.current) return;
    const point = toFraction(event.clientX, event.clientY, image.current.getBoundingClientRect());
    if (point) onPlace(point.x, point.y);
  };

  return (
    <div className={styles.viewer}>
      <div
        ref={viewport}
        className={`${styles.viewport} ${tool === 'move' ? styles.grab : styles.crosshair}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onClick={onClick}
        role="application"
        aria-label={label}
        aria-roledescription="答卷图片，可缩放和拖动"
      >
        {url ? (
          <div
            className={styles.stage}
            style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
            data-testid="answer-stage"
          >
            <img ref={image} src={url} alt={label} className={styles.answerImage} onLoad={fit} draggable={false} />
            {annotations.map((mark, i) => (
              <span
                key={i}
                className={`${styles.mark} ${styles[mark.kind]}`}
                style={{
                  left: `${mark.x * 100}%`,
                  top: `${mark.y * 100}%`,
                  transform: `translate(-50%, -50%) scale(${1 / view.scale})`,
                }}
                aria-label={mark.kind === 'comment' ? `批注：${mark.text}` : mark.kind === 'tick' ? '勾' : '叉'}
                role="note"
              >
                {mark.kind === 'tick' ? '✓' : mark.kind === 'cross' ? '✗' : mark.text}
              </span>
            ))}
          </div>
        ) : failed ? (
          <div className={styles.viewerMessage}>
            <span>答卷图片加载失败</span>
            <Button onClick={onRetry}>重试</Button>
          </div>
        ) : (
          <div className={styles.viewerMessage}>
            <Spin size="large" />
          </div>
        )}
      </div>
      <div className={styles.zoomBar} role="toolbar" aria-label="缩放">
        <Button size="small" icon={<IconMinus />} aria-label="缩小" title="缩小" onClick={() => zoomBy(1 / ZOOM_STEP)} />
        <span className={styles.zoomValue} aria-live="polite" aria-label="缩放比例">
          {`${formatPercent(view.scale)}`}
        </span>
        <Button size="small" icon={<IconPlus />} aria-label="放大" title="放大" onClick={() => zoomBy(ZOOM_STEP)} />
        <Button size="small" onClick={fit}>
          适应
        </Button>
        <Button size="small" onClick={() => setView((v) => zoomAbout(v, 1 / v.scale, 0, 0))}>
          1:1
        </Button>
      </div>
    </div>
  );
}

function formatPercent(scale: number): string {
  const percent = scale * 100;
  return `${percent < 10 ? percent.toFixed(1) : Math.round(percent)}%`;
}
