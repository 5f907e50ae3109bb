// A text that may be very long (an adjustment's reason, a delivery's error): the first characters, with
// the whole text in the tooltip and a button that shows all of it in place, so one long text never
// squeezes the other columns of its table.
import { useState } from 'react';

/** The characters shown before "Show all". */
const DEFAULT_LIMIT = 140;

export function LongText({ text, limit = DEFAULT_LIMIT }: { text: string; limit?: number }) {
  const [expanded, setExpanded] = useState(false);
  if (text.length <= limit) return <span className="long-text">{text}</span>;
  return (
    <span className="long-text">
      {expanded ? <span className="long-text-full">{text}</span> : <span title={text}>{`${text.slice(0, limit - 1).trimEnd()}…`}</span>}{' '}
      <button type="button" className="link-button long-text-toggle" aria-expanded={expanded} onClick={() => setExpanded((open) => !open)}>
        {expanded ? 'Show less' : `Show all ${text.length.toLocaleString('en-US')} characters`}
      </button>
    </span>
  );
}
