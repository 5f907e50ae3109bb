// One cap's figures: what is committed of it, as words and as a bar (amber from 80 %, red once reached),
// and what is left or what happens now. The bar is a progressbar named by `label`, its value in words.
import { capUsage, committedOfCap, percentWords, roomWords, type CapAction } from './caps';
import './billing.css';

interface CapMeterProps {
  committedCents: number;
  capCents: number;
  /** The bar's accessible name: "Monthly cap used", "Support replies: budget cap used". */
  label: string;
  /** A project's: what a task past the cap meets (the monthly cap always refuses). */
  action?: CapAction;
  /** A table cell's: smaller type. */
  compact?: boolean;
}

export function CapMeter({ committedCents, capCents, label, action = 'refuse', compact = false }: CapMeterProps) {
  const usage = capUsage(committedCents, capCents);
  const figures = committedOfCap(committedCents, capCents);
  const room = roomWords(committedCents, capCents, action);
  return (
    <div className={`cap-meter cap-${usage.state}${compact ? ' cap-meter-compact' : ''}`}>
      <div className="cap-meter-figures">
        <span className="cap-meter-main">{figures}</span>
        <span className="cap-meter-percent">{percentWords(usage)}</span>
      </div>
      <div
        className="cap-bar"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(100, Number.isFinite(usage.percent) ? usage.percent : 100)}
        aria-valuetext={`${figures}, ${percentWords(usage)}`}
      >
        <span className="cap-bar-fill" style={{ width: `${usage.share * 100}%` }} />
      </div>
      <p className="cap-meter-room">{room}</p>
    </div>
  );
}
