import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

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
      axes: [{}, { size: 40 }],
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
