// Resident memory of another process, from /proc (Linux): the current RSS, its peak since a
// reset, and a sampler for the peak over an interval.
import { readFileSync, writeFileSync } from "node:fs";

/** A field of /proc/<pid>/status in KB, or null where /proc is not there. */
export function statusKb(pid, field) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Resets the process's peak RSS (VmHWM) to its current RSS ("5" to clear_refs), so that a
 * later VmHWM is the peak of what followed. False where the kernel does not allow it.
 */
export function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples VmRSS every `intervalMs` until stop(); resolves with the baseline (RSS at start)
 * and the peak, the larger of the samples and VmHWM (which catches peaks between samples
 * when the reset worked), in MB.
 */
export function watchPeak(pid, intervalMs = 10) {
  const exact = resetPeak(pid);
  const baselineKb = statusKb(pid, "VmRSS");
  let maxKb = baselineKb;
  const timer = setInterval(() => {
    const rss = statusKb(pid, "VmRSS");
    if (rss !== null && rss > maxKb) maxKb = rss;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const hwm = exact ? statusKb(pid, "VmHWM") : null;
      const peakKb = Math.max(maxKb, hwm ?? 0, statusKb(pid, "VmRSS") ?? 0);
      return {
        baselineMb: baselineKb / 1024,
        peakMb: peakKb / 1024,
        growthMb: (peakKb - baselineKb) / 1024,
        peakFromHwm: exact,
      };
    },
  };
}
