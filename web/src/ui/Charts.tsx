// Small SVG charts, drawn by hand to keep the bundle light. Each is an image with a text alternative
// (`aria-label` summarising it) and its figures in a table a tap away ("Figures"), since a bar's tooltip
// needs a mouse; a chart with nothing to show says so instead of drawing an empty axis.
import { useId, type ReactNode } from 'react';

export interface Series {
  name: string;
  color: string;
}

interface BarChartProps {
  title: string;
  /** One entry per bar; `values` has one number per series (stacked). */
  data: { label: string; values: number[] }[];
  series: Series[];
  formatValue?: (value: number) => string;
  height?: number;
  /**
   * Axis labels at the bars' edges instead of under some bars: one more label than bars, for a histogram
   * of buckets ("0", "0.1", …, "1" under ten buckets of 0.1).
   */
  edges?: string[];
  /** Each bar's total written above it, for charts of few bars (a histogram). */
  showValues?: boolean;
}

const WIDTH = 640;

export function BarChart({ title, data, series, formatValue = String, height = 180, edges, showValues = false }: BarChartProps) {
  const totals = data.map((d) => d.values.reduce((a, b) => a + b, 0));
  const empty = totals.every((t) => t === 0);
  const max = Math.max(1, ...totals);
  const gap = data.length > 40 ? 1 : 3;
  const barWidth = Math.max(1, (WIDTH - gap * data.length) / Math.max(1, data.length));
  // Room above the highest bar for its value.
  const plotHeight = height;
  const top = showValues ? 22 : 4;
  // About six labels: enough to read the time axis, few enough not to collide on a phone or a half-width card.
  const labelEvery = Math.ceil(data.length / 6);
  const summary = `${title}: ${data.length} bars, highest ${formatValue(empty ? 0 : max)}`;
  const centre = (i: number) => ((i * (barWidth + gap) + barWidth / 2) / WIDTH) * 100;
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
    <figure className="chart">
      <div className="chart-plot">
        <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={summary} preserveAspectRatio="none">
          <line x1={0} x2={WIDTH} y1={plotHeight} y2={plotHeight} className="chart-axis" />
          {data.map((d, i) => {
            let y = plotHeight;
            const x = i * (barWidth + gap);
            return (
              <g key={d.label}>
                {d.values.map((value, s) => {
                  const h = (value / max) * (plotHeight - top);
                  y -= h;
                  return value > 0 ? (
                    <rect key={series[s]?.name ?? s} x={x} y={y} width={barWidth} height={h} fill={series[s]?.color ?? '#4f46e5'} rx={1}>
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
              <span key={d.label} style={{ left: `${centre(i)}%`, bottom: `${((totals[i] ?? 0) / max) * ((plotHeight - top) / plotHeight) * 100}%` }}>
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
              const left = ((i * (barWidth + gap) - (i === 0 ? 0 : gap / 2)) / WIDTH) * 100;
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
          : data.map((d, i) => {
              // Counted back from the last bar (today, on a time axis), which is always labelled.
              if ((data.length - 1 - i) % labelEvery !== 0) return null;
              const left = centre(i);
              // Labels near an edge are anchored so they are not cut off.
              return (
                <span key={d.label} style={{ left: `${left}%` }} className={left < 8 ? 'first' : left > 92 ? 'last' : undefined}>
                  {d.label}
                </span>
              );
            })}
      </div>
      {series.length > 1 ? <Legend series={series} /> : null}
      <figcaption>
        <details className="chart-figures">
          <summary>Figures</summary>
          <FiguresTable title={title} data={data} series={series} formatValue={formatValue} />
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

function FiguresTable({ title, data, series, formatValue }: Required<Pick<BarChartProps, 'title' | 'data' | 'series' | 'formatValue'>>) {
  return (
    <table>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Label</th>
          {series.map((s) => (
            <th key={s.name} scope="col">
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
              <td key={series[i]?.name ?? i}>{formatValue(v)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Horizontal bars with their labels, for distributions over named categories. */
export function HorizontalBars({
  title,
  data,
  formatValue = String,
}: {
  title: string;
  data: { label: string; value: number }[];
  formatValue?: (v: number) => string;
}) {
  const max = Math.max(1, ...data.map((d) => d.value));
  return (
    <figure className="hbars" aria-label={title}>
      <ul>
        {data.map((d) => (
          <li key={d.label}>
            <span className="hbar-label">{d.label}</span>
            <span className="hbar-track" aria-hidden="true">
              <span className="hbar-fill" style={{ width: `${(d.value / max) * 100}%` }} />
            </span>
            <span className="hbar-value">{formatValue(d.value)}</span>
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
