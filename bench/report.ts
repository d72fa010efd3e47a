// One line per measurement, in the same shape for every bench file.
export function report(name: string, seconds: number, bytes: number, rows: number): void {
  const mb = bytes / 1e6;
  const rss = process.resourceUsage().maxRSS / 1024;
  console.log(
    `${name.padEnd(34)} ${seconds.toFixed(3).padStart(8)} s  ${(mb / seconds).toFixed(1).padStart(7)} MB/s  ${Math.round(
      rows / seconds,
    )
      .toLocaleString('en')
      .padStart(11)} rows/s  peak RSS ${rss.toFixed(0)} MB (${((rss * 1024 * 1024) / bytes).toFixed(2)}× file)`,
  );
}
