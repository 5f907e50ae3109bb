// Files in the browser: sizes in words, and saving a Blob under a name through the browser's download.

/** Bytes in B, KB, MB, GB (base 1 024, so the 5 MB upload limit reads "5.00 MB" at 5 × 1 024 × 1 024). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)} ${units[unit]}`;
}

/** Hands a Blob URL to the browser's download through a temporary <a download>. */
export function saveBlobUrl(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves a Blob made in the page (an example file); its URL is freed once the download has started. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  saveBlobUrl(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
