package io.weir.testing;

import io.weir.common.KeyValue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * The input of {@link EosAggregatesApp} in a fault test, made from a seed, and what the
 * application must write for it: record {@code n} is key {@code k<i>} with a long value; every
 * one of the {@code keys} keys occurs, a hundredth of them ("hot") get a fifth of the records so
 * that some keys have long histories, and values are spread over {@code [-1e6, 1e6]} so that min
 * and max move. The same seed always gives the same records in the same order.
 *
 * <p>For each key its values in input order ({@link #valuesOf}) are the expected echo, and their
 * running {@link Aggregate}s the expected aggregates. Immutable after construction; about 16
 * bytes a record.
 */
public final class AggregatesWorkload {

    private static final int VALUE_RANGE = 1_000_000;

    private final long seed;
    private final int keys;
    private final int[] keyOf;
    private final long[] valueOf;
    /** Record numbers grouped by key, in input order: key i owns byKey[start[i] .. start[i + 1]). */
    private final int[] byKey;

    private final int[] start;

    private AggregatesWorkload(long seed, int keys, int[] keyOf, long[] valueOf) {
        this.seed = seed;
        this.keys = keys;
        this.keyOf = keyOf;
        this.valueOf = valueOf;
        this.start = new int[keys + 1];
        for (int k : keyOf) {
            start[k + 1]++;
        }
        for (int i = 0; i < keys; i++) {
            start[i + 1] += start[i];
        }
        this.byKey = new int[keyOf.length];
        int[] next = start.clone();
        for (int n = 0; n < keyOf.length; n++) {
            byKey[next[keyOf[n]]++] = n;
        }
    }

    /** {@code records} records over exactly {@code keys} keys (each at least once), from {@code seed}. */
    public static AggregatesWorkload generate(long seed, int records, int keys) {
        if (keys < 1 || records < keys) {
            throw new IllegalArgumentException(
                    "need at least one record per key: " + records + " records, " + keys + " keys");
        }
        Random random = new Random(seed);
        int hot = Math.max(1, keys / 100);
        int[] keyOf = new int[records];
        for (int n = 0; n < records; n++) {
            // The first `keys` slots name every key once; the shuffle below spreads them out.
            keyOf[n] = n < keys ? n : random.nextInt(5) == 0 ? random.nextInt(hot) : random.nextInt(keys);
        }
        for (int n = records - 1; n > 0; n--) {
            int other = random.nextInt(n + 1);
            int swap = keyOf[n];
            keyOf[n] = keyOf[other];
            keyOf[other] = swap;
        }
        long[] valueOf = new long[records];
        for (int n = 0; n < records; n++) {
            valueOf[n] = random.nextInt(2 * VALUE_RANGE + 1) - VALUE_RANGE;
        }
        return new AggregatesWorkload(seed, keys, keyOf, valueOf);
    }

    public long seed() {
        return seed;
    }

    public int records() {
        return keyOf.length;
    }

    public int keys() {
        return keys;
    }

    /** The name of key {@code i}. */
    public static String keyName(int i) {
        return "k" + i;
    }

    /** The index of a key name, or -1 if it is not one of this workload's keys. */
    public int keyIndex(String name) {
        if (name == null || name.length() < 2 || name.charAt(0) != 'k') {
            return -1;
        }
        try {
            int i = Integer.parseInt(name.substring(1));
            return i >= 0 && i < keys && name.equals(keyName(i)) ? i : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Record {@code n} as the producer sends it: UTF-8 key, 8-byte big-endian value. */
    public KeyValue<byte[], byte[]> record(long n) {
        int i = Math.toIntExact(n);
        return KeyValue.of(
                keyName(keyOf[i]).getBytes(StandardCharsets.UTF_8),
                ByteBuffer.allocate(8).putLong(valueOf[i]).array());
    }

    /** How many records key {@code key} has. */
    public int countOf(int key) {
        return start[key + 1] - start[key];
    }

    /** The value of the {@code j}-th record of {@code key} in input order. */
    public long valueOf(int key, int j) {
        return valueOf[byKey[start[key] + j]];
    }

    /** The input record number of the {@code j}-th record of {@code key}. */
    public int recordNumber(int key, int j) {
        return byKey[start[key] + j];
    }

    /** The aggregate of all of {@code key}'s values: what its store must hold at the end. */
    public Aggregate finalAggregate(int key) {
        Aggregate a = null;
        for (int j = 0; j < countOf(key); j++) {
            a = Aggregate.add(a, valueOf(key, j));
        }
        return a;
    }

    /** The largest number of records of one key. */
    public int longestHistory() {
        int longest = 0;
        for (int k = 0; k < keys; k++) {
            longest = Math.max(longest, countOf(k));
        }
        return longest;
    }
}
