/**
 * Peak resident memory during one extraction: RSS sampled every 20 ms (the engines run on their own
 * threads, so the event loop is free to sample while they work) and at the start and end. A sample
 * missed between two ticks makes this a lower bound; the process's lifetime high-water mark
 * (process.resourceUsage().maxRSS) is reported beside it by the bench.
 */
export class PeakRss {
  private peak = 0;
  private timer: NodeJS.Timeout | undefined;

  start(): void {
    this.peak = process.memoryUsage.rss();
    this.timer = setInterval(() => {
      this.peak = Math.max(this.peak, process.memoryUsage.rss());
    }, 20);
    this.timer.unref();
  }

  /** The peak in MB since start. */
  stop(): number {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.peak = Math.max(this.peak, process.memoryUsage.rss());
    return Math.round(this.peak / 1024 / 1024);
  }
}
