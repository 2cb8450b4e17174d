package io.weir.benchmarks.input;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import org.apache.kafka.common.utils.Utils;

/**
 * The event time of the windowed input and what a correct windowed count makes of it: the
 * generator ({@link Workload#createWindowed}) asks it for each record's timestamp and partition and
 * tells it each record's key, so that after writing it knows the count of every key in every
 * window and which windows the input closes.
 *
 * <p>Event time: record {@code i} (in the order written) has the timestamp
 * {@code base + i / RECORDS_PER_MS}, 10,000 records per second of event time, with {@code base}
 * a multiple of the window size: 10,000,000 records span 1,000 s, 100 windows of 10 s of about
 * 100,000 records each, about 10 per key and window with 10,000 keys. So about one output record
 * per ten input records (10,000 keys × 99 closed windows): enough for the emission on close to
 * matter, not so much that the benchmark measures writing output. Timestamps never decrease
 * within a partition, so with out-of-orderness 0 and grace 0 no record is late.
 *
 * <p>Which windows close: both systems keep event time per task (one per input partition): Kafka
 * Streams' stream time, Weir's watermark, each the largest timestamp the partition delivered
 * ({@code max.out.of.orderness.ms=0}). A window {@code [start, end)} of a key closes once the
 * key's partition has delivered a timestamp at or past {@code end}: {@link Closure#CLOSED} if that
 * partition's last timestamp is past {@code end}, {@link Closure#EITHER} if it is exactly
 * {@code end} (so the verification does not hinge on {@code <} against {@code <=}), otherwise
 * {@link Closure#OPEN}: the last window of every partition, and any window whose end the last
 * record did not reach, stays open since no later record closes it, in both systems alike.
 *
 * <p>The partition of a key is the default partitioner's ({@code murmur2(key) % partitions}); the
 * generator sets it explicitly, so the model cannot disagree with the topic.
 *
 * <p>Not the sample apps' {@code io.weir.samples.common.WindowModel}, which lists the windows a
 * record belongs to by the DSL's rules (hopping and session windows too) for their checks: this one
 * is the ledger of one generated input (counts per key and 10 s window, partitions, which windows
 * close), which that one has no part of.
 */
public final class WindowModel {

    /** Records per millisecond of event time: 10,000 per second. */
    static final int RECORDS_PER_MS = 10;

    /** Whether a (key, window) must, may or must not have been emitted once the whole input is processed. */
    public enum Closure {
        OPEN,
        CLOSED,
        EITHER
    }

    private final long baseMs;
    private final long windowMs;
    private final int keys;
    private final int digits;
    private final int windows;
    /** Records per key and window, at {@code window * keys + key}. */
    private final int[] counts;

    private final int[] keyPartition;
    private final long[] partitionMaxTimestamp;
    private long records;

    /**
     * An empty model for an input of {@code records} records over {@code keys} keys whose event
     * time starts at {@code baseMs} (a multiple of {@code windowMs}).
     */
    WindowModel(long baseMs, long windowMs, long records, int keys, int partitions) {
        if (baseMs % windowMs != 0) {
            throw new IllegalArgumentException("the base time " + baseMs + " is not aligned to " + windowMs + " ms");
        }
        this.baseMs = baseMs;
        this.windowMs = windowMs;
        this.keys = keys;
        this.digits = Workload.keyDigits(keys);
        long lastOffset = Math.max(0, records - 1) / RECORDS_PER_MS;
        long w = lastOffset / windowMs + 1;
        if (w * keys > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(records + " records over " + keys + " keys make " + w
                    + " windows per key: too many (key, window) cells to keep");
        }
        this.windows = (int) w;
        this.counts = new int[windows * keys];
        this.keyPartition = new int[keys];
        for (int k = 0; k < keys; k++) {
            keyPartition[k] = Utils.toPositive(Utils.murmur2(Workload.key(k, digits))) % partitions;
        }
        this.partitionMaxTimestamp = new long[partitions];
        Arrays.fill(partitionMaxTimestamp, Long.MIN_VALUE);
    }

    /** The timestamp of record {@code i}. */
    long timestamp(long i) {
        return baseMs + i / RECORDS_PER_MS;
    }

    /** The partition of key {@code key}. */
    int partition(int key) {
        return keyPartition[key];
    }

    /** Record {@code i}, of key {@code key}, was written. */
    void add(long i, int key) {
        long ts = timestamp(i);
        counts[window(ts) * keys + key]++;
        int p = keyPartition[key];
        partitionMaxTimestamp[p] = Math.max(partitionMaxTimestamp[p], ts);
        records++;
    }

    long records() {
        return records;
    }

    long windowMs() {
        return windowMs;
    }

    int keys() {
        return keys;
    }

    int windows() {
        return windows;
    }

    /** The (key, window) cells: {@code windows() * keys()}, indexed {@code window * keys + key}. */
    public int cells() {
        return counts.length;
    }

    /** The records of a cell. */
    public int count(int cell) {
        return counts[cell];
    }

    /** The window start of a cell. */
    long windowStart(int cell) {
        return baseMs + (long) (cell / keys) * windowMs;
    }

    /** The key of a cell, as written. */
    public String keyName(int cell) {
        return new String(Workload.key(cell % keys, digits), StandardCharsets.US_ASCII);
    }

    /** Whether the input closes a cell's window in its key's partition. */
    public Closure closure(int cell) {
        long end = windowStart(cell) + windowMs;
        long max = partitionMaxTimestamp[keyPartition[cell % keys]];
        return max > end ? Closure.CLOSED : max == end ? Closure.EITHER : Closure.OPEN;
    }

    /** The results the input must produce: non-empty cells that are {@link Closure#CLOSED}. */
    public long closedResults() {
        long n = 0;
        for (int cell = 0; cell < counts.length; cell++) {
            if (counts[cell] > 0 && closure(cell) == Closure.CLOSED) {
                n++;
            }
        }
        return n;
    }

    /** The results the input may produce: non-empty cells that are not {@link Closure#OPEN}. */
    public long possibleResults() {
        long n = 0;
        for (int cell = 0; cell < counts.length; cell++) {
            if (counts[cell] > 0 && closure(cell) != Closure.OPEN) {
                n++;
            }
        }
        return n;
    }

    /**
     * The cell of an output record's window ({@code start}, {@code end}) and key bytes, or -1 if
     * there is no such cell: a window that is not one of the input's 10 s windows, a key that is
     * not one of its keys.
     */
    public int cell(long start, long end, byte[] key) {
        if (end - start != windowMs || start < baseMs || (start - baseMs) % windowMs != 0) {
            return -1;
        }
        long w = (start - baseMs) / windowMs;
        int k = keyIndex(key);
        return w >= windows || k < 0 ? -1 : (int) w * keys + k;
    }

    /** The index of {@code key-NNNNN} (exactly as {@link Workload#key} writes it), or -1. */
    private int keyIndex(byte[] key) {
        if (key.length != 4 + digits || key[0] != 'k' || key[1] != 'e' || key[2] != 'y' || key[3] != '-') {
            return -1;
        }
        int k = 0;
        for (int i = 4; i < key.length; i++) {
            if (key[i] < '0' || key[i] > '9') {
                return -1;
            }
            k = k * 10 + (key[i] - '0');
        }
        return k < keys ? k : -1;
    }

    private int window(long ts) {
        return (int) ((ts - baseMs) / windowMs);
    }

    @Override
    public String toString() {
        return records + " records, " + keys + " keys, " + windows + " windows of " + windowMs + " ms from "
                + Instant.ofEpochMilli(baseMs) + ", " + closedResults() + " closed (key, window) results";
    }
}
