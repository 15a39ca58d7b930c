import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

/** Tick steps of the time axis, in seconds: 1 s to a week. */
const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400, 604_800];

const MIN_SPAN_S = 60;

/** `[min, max]` widened around its middle to `span` when narrower. */
const padded = (min: number, max: number, span: number): uPlot.Range.MinMax => {
  const pad = Math.max(0, span - (max - min)) / 2;
  return [min - pad, max + pad];
};

/** How a tick (seconds since the epoch) reads: a time, with the day when the ticks span more than one. */
const timeLabel = (ticks: number[]) => {
  const days = (ticks.at(-1)! - ticks[0]!) >= 86_400;
  return (tick: number) => {
    const at = new Date(tick * 1000);
    return days ? `${at.toLocaleDateString([], { month: 'short', day: 'numeric' })} ${at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}` : at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  };
};

export interface Series {
  label: string;
  color: string;
  /** One value per point of `x`. */
  values: number[];
}

/**
 * A line chart (uPlot) of `series` over `x` (seconds since the epoch). Its box has a fixed
 * height, so the page does not move while live data redraws it.
 */
export function LineChart({ x, series, title }: { x: number[]; series: Series[]; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const shape = series.map((s) => s.label).join('|');

  useEffect(() => {
    const el = box.current!;
    const opts: uPlot.Options = {
      width: el.clientWidth,
      height: 220,
      series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
      // A minute at least: points a few seconds apart still get ticks of whole seconds.
      scales: { x: { time: true, range: (_u, min, max) => padded(min, max, MIN_SPAN_S) } },
      // Whole seconds at least, read as clock times (dates too when the range spans days):
      // uPlot's own ticks for a few seconds of data are fractions of a second.
      axes: [{ space: 90, incrs: TIME_STEPS, values: (_u, ticks) => ticks.map(timeLabel(ticks)) }, { size: 40 }],
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
  }, [shape]);

  useEffect(() => {
    plot.current?.setData([x, ...series.map((s) => s.values)]);
  }, [x, series]);

  return <figure className="chart" aria-label={title}><div ref={box} /></figure>;
}
