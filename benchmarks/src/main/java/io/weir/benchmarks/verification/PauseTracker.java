package io.weir.benchmarks.verification;

import java.util.Arrays;

/**
 * The output pauses of each partition of a topic, from the moments a reader received records of
 * it (the scale-out workload): a pause is the time between two consecutive receptions on one
 * partition. Before its first reception a partition counts as having received at the moment the
 * tracking started, so a partition that never produces shows one pause from then on.
 *
 * <p>{@link #longest} over a window [from, to] considers every pause that ends inside it, counted in
 * full (also the part before {@code from}), and the pause still open at {@code to} (from a
 * partition's last reception up to {@code to}), so that a partition stopped at the window's end
 * is not missed. Pauses that end before {@code from} or begin after {@code to} do not count.
 *
 * <p>Threads: one thread (the reader) calls {@link #received}, any other may call
 * {@link #longest} and {@link #allReceivedSince}; all are synchronized.
 */
public final class PauseTracker {

    /** A pause of {@code partition} from {@code beginNanos} to {@code endNanos} ({@link System#nanoTime()}). */
    public record Pause(int partition, long beginNanos, long endNanos) {
        public double seconds() {
            return (endNanos - beginNanos) / 1e9;
        }
    }

    private final long startedNanos;
    /** Per partition, the reception times in order; {@code counts[p]} of them are used. */
    private final long[][] receptions;

    private final int[] counts;

    PauseTracker(int partitions, long startedNanos) {
        if (partitions <= 0) {
            throw new IllegalArgumentException("partitions must be positive");
        }
        this.startedNanos = startedNanos;
        this.receptions = new long[partitions][16];
        this.counts = new int[partitions];
    }

    /**
     * Records that output of {@code partition} was received at {@code nanos}; times of one
     * partition must not decrease.
     */
    synchronized void received(int partition, long nanos) {
        int n = counts[partition];
        if (n > 0 && nanos < receptions[partition][n - 1]) {
            throw new IllegalArgumentException("reception times of partition " + partition + " went backwards");
        }
        if (n == receptions[partition].length) {
            receptions[partition] = Arrays.copyOf(receptions[partition], n * 2);
        }
        receptions[partition][n] = nanos;
        counts[partition] = n + 1;
    }

    /** The longest pause of any partition that ends in [from, to] or is still open at {@code to}. */
    synchronized Pause longest(long fromNanos, long toNanos) {
        if (toNanos < fromNanos) {
            throw new IllegalArgumentException("the window ends before it begins");
        }
        Pause longest = null;
        for (int p = 0; p < counts.length; p++) {
            long previous = startedNanos;
            for (int i = 0; i < counts[p]; i++) {
                long t = receptions[p][i];
                if (t > toNanos) {
                    break;
                }
                if (t >= fromNanos) {
                    longest = longer(longest, new Pause(p, previous, t));
                }
                previous = t;
            }
            if (previous < toNanos) {
                longest = longer(longest, new Pause(p, previous, toNanos)); // still open at the window's end
            }
        }
        return longest != null ? longest : new Pause(0, toNanos, toNanos);
    }

    /** Whether every partition has received output at or after {@code nanos}. */
    synchronized boolean allReceivedSince(long nanos) {
        for (int p = 0; p < counts.length; p++) {
            if (counts[p] == 0 || receptions[p][counts[p] - 1] < nanos) {
                return false;
            }
        }
        return true;
    }

    private static Pause longer(Pause a, Pause b) {
        return a == null || b.endNanos() - b.beginNanos() > a.endNanos() - a.beginNanos() ? b : a;
    }
}
