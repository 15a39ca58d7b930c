import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

const DAY_S = 86_400;

/** How the time axis reads: its tick steps (seconds), its shortest span, and each tick's text. */
interface TimeAxis {
  steps: number[];
  minSpan: number;
  label(ticks: number[]): (tick: number) => string;
}

/** Clock times, 1 s to a week apart, over a minute at least (dates too when the ticks span days). */
const CLOCK: TimeAxis = {
  steps: [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, DAY_S, 7 * DAY_S],
  minSpan: 60,
  label: (ticks) => {
    const days = ticks.at(-1)! - ticks[0] >= DAY_S;
    return (tick) => {
      const at = new Date(tick * 1000);
      return days
        ? `${at.toLocaleDateString([], { month: 'short', day: 'numeric' })} ${at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`
        : at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    };
  },
};

/** Days, one to a month apart, over two days at least. */
const DAYS: TimeAxis = {
  steps: [DAY_S, 2 * DAY_S, 7 * DAY_S, 14 * DAY_S, 28 * DAY_S],
  minSpan: 2 * DAY_S,
  label: () => (tick) => new Date(tick * 1000).toLocaleDateString([], { month: 'short', day: 'numeric' }),
};

/** `[min, max]` widened around its middle to `span` when narrower. */
const padded = (min: number, max: number, span: number): uPlot.Range.MinMax => {
  const pad = Math.max(0, span - (max - min)) / 2;
  return [min - pad, max + pad];
};

export interface Series {
  label: string;
  color: string;
  /** One value per point of `x`. */
  values: number[];
}

/**
 * A line chart (uPlot) of `series` over `x` (seconds since the epoch), read as clock times or,
 * with `days`, as dates. Its box has a fixed height, so the page does not move while live data
 * redraws it.
 */
export function LineChart({ x, series, title, days = false }: { x: number[]; series: Series[]; title: string; days?: boolean }) {
  const axis = days ? DAYS : CLOCK;
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const shape = series.map((s) => s.label).join('|');

  useEffect(() => {
    const el = box.current!;
    const opts: uPlot.Options = {
      width: el.clientWidth,
      height: 220,
      series: [{ label: days ? 'Day' : 'Time', value: (_u, v) => (v == null ? '--' : axis.label([v, v])(v)) }, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
      // A shortest span: points a few seconds apart still get ticks of whole seconds.
      scales: { x: { time: true, range: (_u, min, max) => padded(min, max, axis.minSpan) } },
      // uPlot's own ticks for a few seconds of data are fractions of a second, in milliseconds.
      axes: [{ space: 90, incrs: axis.steps, values: (_u, ticks) => ticks.map(axis.label(ticks)) }, { size: 40 }],
    };
    plot.current = new uPlot(opts, [[], ...series.map(() => [])], el);
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
    // The chart is rebuilt only when its series change, not on each new point.
  }, [shape, days]);

  useEffect(() => {
    plot.current?.setData([x, ...series.map((s) => s.values)]);
  }, [x, series]);

  return (
    <figure className="chart" aria-label={title}>
      <div ref={box} />
    </figure>
  );
}
