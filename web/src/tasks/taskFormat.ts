// How a task's figures read in tables and the drawer.

/** The first characters of a text on one line, for tables. */
export function excerpt(text: string, length = 90): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}

export const formatConfidence = (confidence: number | null | undefined): string =>
  confidence === null || confidence === undefined ? '—' : `${(confidence * 100).toFixed(1)} %`;

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const seconds = ms / 1_000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  if (minutes < 60) return `${minutes} min ${rest} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
