package io.weir.benchmarks.enrich;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The whole machine's CPU time from {@code /proc/stat} (Linux): busy and total jiffies over all
 * cores, so that a run can say how busy the cores were (broker, service, system under test and
 * anything else on the machine), which tells whether the cores rather than the in-flight bound
 * limited it. Absent ({@link #NONE}) where {@code /proc/stat} cannot be read.
 */
record CpuBusy(long busy, long total) {

    static final CpuBusy NONE = new CpuBusy(-1, -1);
    private static final Path STAT = Path.of("/proc/stat");

    static CpuBusy now() {
        try {
            List<String> lines = Files.readAllLines(STAT);
            String[] f = lines.get(0).trim().split("\\s+"); // cpu user nice system idle iowait irq softirq steal
            long total = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
            return new CpuBusy(total - idle, total);
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
    }

    /** The cores' busy share between {@code earlier} and this, 0 to 1; NaN if unknown. */
    double since(CpuBusy earlier) {
        if (this == NONE || earlier == NONE || total <= earlier.total) {
            return Double.NaN;
        }
        return (double) (busy - earlier.busy) / (total - earlier.total);
    }
}
