// Small SVG charts, drawn by hand to keep the bundle light. Each is an image with a text alternative
// (`aria-label` summarising it) and its figures in a table a tap away ("Figures"), since a bar's tooltip
// needs a mouse; a chart with nothing to show says so instead of drawing an empty axis.
import { useId, type ReactNode } from 'react';
import { valueTicks, xLabelSlots } from './chartScale';

export interface Series {
  name: string;
  color: string;
}

interface BarChartProps {
  title: string;
  /** One entry per bar; `values` has one number per series (stacked, or side by side with `grouped`). */
  data: { label: string; values: number[] }[];
  series: Series[];
  /** The heading of the figures table's first column, what a bar's label is: "Date", "Confidence". */
  labelHeading: string;
  formatValue?: (value: number) => string;
  /** How the value axis writes a tick (shorter than formatValue: "$250"); formatValue by default. */
  formatTick?: (value: number) => string;
  height?: number;
  /**
   * Axis labels at the bars' edges instead of under some bars: one more label than bars, for a histogram
   * of buckets ("0", "0.1", …, "1" under ten buckets of 0.1).
   */
  edges?: string[];
  /** Each bar's total written above it, for charts of few bars (a histogram). */
  showValues?: boolean;
  /** A value axis with round ticks and grid lines; on unless each bar's value is written above it. */
  valueAxis?: boolean;
  /**
   * The series side by side within each bar's slot instead of stacked: for series that are not parts of
   * one whole (money in and money out), so one is never read as the other.
   */
  grouped?: boolean;
}

const WIDTH = 640;

export function BarChart({
  title,
  data,
  series,
  labelHeading,
  formatValue = String,
  formatTick = formatValue,
  height = 180,
  edges,
  showValues = false,
  valueAxis = !showValues,
  grouped = false,
}: BarChartProps) {
  const totals = data.map((d) => d.values.reduce((a, b) => a + b, 0));
  const empty = totals.every((t) => t === 0);
  // What one bar reaches: a stack's total, or the tallest of a group.
  const heights = grouped ? data.map((d) => Math.max(0, ...d.values)) : totals;
  const highest = Math.max(1, ...heights);
  const ticks = valueAxis ? valueTicks(highest) : [];
  const max = valueAxis ? (ticks[ticks.length - 1] ?? highest) : highest;
  const gap = data.length > 40 ? 1 : 3;
  const slotWidth = Math.max(1, (WIDTH - gap * data.length) / Math.max(1, data.length));
  const perSlot = grouped ? Math.max(1, series.length) : 1;
  const barWidth = slotWidth / perSlot;
  const plotHeight = height;
  // Room above the highest bar for its value, or for the top tick's label.
  const top = showValues ? 22 : valueAxis ? 8 : 4;
  const y = (value: number) => plotHeight - (value / max) * (plotHeight - top);
  const summary = `${title}: ${data.length} bars, ${
    grouped && series.length > 1
      ? series.map((s, i) => `highest ${s.name.toLowerCase()} ${formatValue(empty ? 0 : Math.max(0, ...data.map((d) => d.values[i] ?? 0)))}`).join(', ')
      : `highest ${formatValue(empty ? 0 : highest)}`
  }`;
  const centre = (i: number) => ((i * (slotWidth + gap) + slotWidth / 2) / WIDTH) * 100;
  if (empty) {
    return (
      <figure className="chart">
        <div className="chart-empty" role="img" aria-label={`${title}: no data yet`}>
          No data yet
        </div>
      </figure>
    );
  }
  return (
    <figure className={`chart${valueAxis ? ' chart-with-axis' : ''}`}>
      <div className="chart-body">
        {valueAxis ? (
          // In HTML, like the time axis, so the text keeps its size when the chart stretches; its labels
          // are placed absolutely, so the column is given the width of the longest.
          <div className="chart-ylabels" aria-hidden="true" style={{ width: `${Math.max(...ticks.map((tick) => formatTick(tick).length)) * 0.62 + 0.2}em` }}>
            {ticks.map((tick) => (
              <span key={tick} style={{ bottom: `${((plotHeight - y(tick)) / plotHeight) * 100}%` }}>
                {formatTick(tick)}
              </span>
            ))}
          </div>
        ) : null}
        <div className="chart-main">
          <div className="chart-plot">
            <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={summary} preserveAspectRatio="none">
              {ticks.slice(1).map((tick) => (
                <line key={tick} x1={0} x2={WIDTH} y1={y(tick)} y2={y(tick)} className="chart-grid" vectorEffect="non-scaling-stroke" />
              ))}
              <line x1={0} x2={WIDTH} y1={plotHeight} y2={plotHeight} className="chart-axis" vectorEffect="non-scaling-stroke" />
              {data.map((d, i) => {
                let stackTop = plotHeight;
                const x = i * (slotWidth + gap);
                return (
                  <g key={d.label}>
                    {d.values.map((value, s) => {
                      const h = plotHeight - y(value);
                      const barTop = grouped ? plotHeight - h : (stackTop -= h);
                      return value > 0 ? (
                        <rect
                          key={series[s]?.name ?? s}
                          x={grouped ? x + s * barWidth : x}
                          y={barTop}
                          width={barWidth}
                          height={h}
                          fill={series[s]?.color ?? '#4f46e5'}
                          rx={1}
                        >
                          <title>{`${d.label} — ${series[s]?.name ?? ''}: ${formatValue(value)}`}</title>
                        </rect>
                      ) : null;
                    })}
                  </g>
                );
              })}
            </svg>
            {showValues ? (
              // In HTML, like the axis labels, so the text keeps its shape when the chart stretches.
              <div className="chart-values" aria-hidden="true">
                {data.map((d, i) => (
                  <span key={d.label} style={{ left: `${centre(i)}%`, bottom: `${((plotHeight - y(heights[i] ?? 0)) / plotHeight) * 100}%` }}>
                    {formatValue(totals[i] ?? 0)}
                  </span>
                ))}
              </div>
            ) : null}
          </div>
          {/* Axis labels in HTML, so they keep their size when the chart stretches to the screen's width. */}
          <div className="chart-xlabels" aria-hidden="true">
            {edges
              ? edges.map((label, i) => {
                  const left = ((i * (slotWidth + gap) - (i === 0 ? 0 : gap / 2)) / WIDTH) * 100;
                  return (
                    <span
                      key={`${label}-${i}`}
                      style={{ left: `${Math.min(100, left)}%` }}
                      className={i === 0 ? 'first' : i === edges.length - 1 ? 'last' : undefined}
                    >
                      {label}
                    </span>
                  );
                })
              : xLabelSlots(data.length).map(({ index, minor }) => {
                  const label = data[index]?.label ?? '';
                  const left = centre(index);
                  // A label near an edge is held inside the chart by that edge instead of centred under its
                  // bar, which would cut it off.
                  const edge = left < 8 ? 'at-start' : left > 92 ? 'at-end' : '';
                  return (
                    <span
                      key={label}
                      style={edge === 'at-end' ? { right: 0 } : edge === 'at-start' ? { left: 0 } : { left: `${left}%` }}
                      className={[edge, minor ? 'minor' : ''].filter(Boolean).join(' ') || undefined}
                    >
                      {label}
                    </span>
                  );
                })}
          </div>
        </div>
      </div>
      {series.length > 1 ? <Legend series={series} /> : null}
      <figcaption>
        <details className="chart-figures">
          <summary>Figures</summary>
          <FiguresTable title={title} data={data} series={series} labelHeading={labelHeading} formatValue={formatValue} />
        </details>
      </figcaption>
    </figure>
  );
}

function Legend({ series }: { series: Series[] }) {
  return (
    <ul className="legend">
      {series.map((s) => (
        <li key={s.name}>
          <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
          {s.name}
        </li>
      ))}
    </ul>
  );
}

function FiguresTable({
  title,
  data,
  series,
  labelHeading,
  formatValue,
}: Required<Pick<BarChartProps, 'title' | 'data' | 'series' | 'labelHeading' | 'formatValue'>>) {
  return (
    <table>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{labelHeading}</th>
          {series.map((s) => (
            <th key={s.name} scope="col" className="num">
              {s.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.map((d) => (
          <tr key={d.label}>
            <th scope="row">{d.label}</th>
            {d.values.map((v, i) => (
              <td key={series[i]?.name ?? i} className="num">
                {formatValue(v)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Horizontal bars with their labels, for distributions over named categories. Each bar is drawn against
 * the longest, or against `max` (1 for rates, so a bar is its share of the whole); a datum's `text`
 * replaces its formatted value. A label cut short shows whole on hover.
 */
export function HorizontalBars({
  title,
  data,
  formatValue = String,
  max,
}: {
  title: string;
  data: { label: string; value: number; text?: string }[];
  formatValue?: (v: number) => string;
  max?: number;
}) {
  const top = max ?? Math.max(1, ...data.map((d) => d.value));
  return (
    <figure className="hbars" aria-label={title}>
      <ul>
        {data.map((d) => (
          <li key={d.label}>
            <span className="hbar-label" title={d.label}>
              {d.label}
            </span>
            <span className="hbar-track" aria-hidden="true">
              <span className="hbar-fill" style={{ width: `${Math.min(1, d.value / top) * 100}%` }} />
            </span>
            <span className="hbar-value">{d.text ?? formatValue(d.value)}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

export function StatCard({ label, value, hint, tone }: { label: string; value: ReactNode; hint?: ReactNode; tone?: 'warning' }) {
  const id = useId();
  return (
    <div className={`stat${tone ? ` stat-${tone}` : ''}`} role="group" aria-labelledby={id}>
      <p className="stat-label" id={id}>
        {label}
      </p>
      <p className="stat-value">{value}</p>
      {hint ? <p className="stat-hint">{hint}</p> : null}
    </div>
  );
}

/**
 * A reliability diagram: each point is a band of confidence, across at the confidence reported, up at the
 * share of golden samples in it that were right, its size by how many samples it holds; on the diagonal a
 * confidence means what it says. Axes from `from` to 1 (confidence below it is rare and uninformative).
 */
export function ReliabilityDiagram({
  title,
  points,
  from = 0.5,
}: {
  title: string;
  points: { confidence: number; accuracy: number; samples: number }[];
  from?: number;
}) {
  const size = 260;
  // Room on the left and at the bottom for the tick labels and the axis titles.
  const left = 52;
  const bottom = 44;
  const edge = 12;
  const span = size - left - edge;
  const x = (value: number) => left + ((Math.max(from, Math.min(1, value)) - from) / (1 - from)) * span;
  const y = (value: number) => edge + span - ((Math.max(from, Math.min(1, value)) - from) / (1 - from)) * span;
  const most = Math.max(1, ...points.map((p) => p.samples));
  const ticks = [from, from + (1 - from) / 2, 1];
  const height = edge + span + bottom;
  const summary = `${title}: ${points.length} bands; ${points.map((p) => `reported ${Math.round(p.confidence * 100)} %, right ${Math.round(p.accuracy * 100)} %`).join('; ')}`;
  return (
    <figure className="chart reliability">
      <svg viewBox={`0 0 ${size} ${height}`} role="img" aria-label={summary}>
        <line x1={x(from)} y1={y(from)} x2={x(1)} y2={y(1)} className="reliability-diagonal" />
        <line x1={left} x2={left + span} y1={edge + span} y2={edge + span} className="chart-axis" />
        <line x1={left} x2={left} y1={edge} y2={edge + span} className="chart-axis" />
        {ticks.map((tick) => (
          <g key={tick} className="reliability-tick">
            <text x={x(tick)} y={edge + span + 14} textAnchor="middle">
              {Math.round(tick * 100)}%
            </text>
            <text x={left - 5} y={y(tick) + 4} textAnchor="end">
              {Math.round(tick * 100)}%
            </text>
          </g>
        ))}
        <text x={left + span / 2} y={edge + span + 34} textAnchor="middle" className="reliability-title">
          Confidence reported
        </text>
        <text x={12} y={edge + span / 2} textAnchor="middle" className="reliability-title" transform={`rotate(-90 12 ${edge + span / 2})`}>
          Share right (golden)
        </text>
        {points.map((p, i) => (
          <circle key={i} cx={x(p.confidence)} cy={y(p.accuracy)} r={3 + 6 * Math.sqrt(p.samples / most)} className="reliability-point" />
        ))}
      </svg>
      <figcaption>
        <details className="chart-figures">
          <summary>Figures</summary>
          <table>
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">Confidence reported</th>
                <th scope="col">Golden samples right</th>
                <th scope="col">Samples</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p, i) => (
                <tr key={i}>
                  <td>{(p.confidence * 100).toFixed(1)} %</td>
                  <td>{(p.accuracy * 100).toFixed(1)} %</td>
                  <td>{p.samples}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}
