import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Preloaded (`--import`) into every measured bench child, after exit-with-parent: records how late the event
 * loop's 1 ms timer fires, a histogram the driver resets before a cell and reads after it through lines on our
 * stdin (`eld:reset`, `eld:report <file>`: the summary is written to that file, then renamed into place so
 * the driver never reads half of it). Nothing changes in the process measured but one more 1 ms timer, which
 * every target carries alike.
 */
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();

const millis = (nanos: number) => nanos / 1e6;

function report(file: string): void {
  const summary = {
    p50: millis(histogram.percentile(50)),
    p99: millis(histogram.percentile(99)),
    max: millis(histogram.max),
    count: histogram.count,
  };
  writeFileSync(`${file}.part`, JSON.stringify(summary));
  renameSync(`${file}.part`, file);
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text: string) => {
  pending += text;
  let end = pending.indexOf('\n');
  while (end >= 0) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    if (line === 'eld:reset') histogram.reset();
    else if (line.startsWith('eld:report ')) report(line.slice('eld:report '.length));
    end = pending.indexOf('\n');
  }
});
