package io.weir.internal.dsl.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One randomly generated input of the window oracle tests: the window definition and the records
 * to pipe, the same on both sides (Weir's {@code TestDriver} and Kafka Streams'
 * {@code TopologyTestDriver}).
 *
 * <p>Records are spread over 1 to 5 keys; their times mostly increase (by steps of the order of
 * the window size or session gap, ties included) with jumps back, some within the allowed
 * lateness and some beyond it, so that late records occur. Some streams start at 0 so that the
 * first windows are clipped (no window starts before 0). The last record is {@link #FLUSH_KEY}, far
 * in the future: it moves stream time (the watermark) past every window of the other keys, which
 * closes them all; its own windows are left out of the comparison.
 *
 * @param seed    the seed that reproduces this stream ({@link #generate})
 * @param kind    the window kind
 * @param size    the window size (time windows) in ms
 * @param advance the advance (time windows; {@code size} for tumbling) in ms
 * @param gap     the inactivity gap (sessions) in ms
 * @param grace   the allowed lateness (Kafka Streams' grace) in ms
 * @param inputs  the records, in the order they are piped; the last is the flush record
 */
record OracleStream(long seed, WindowKind kind, long size, long advance, long gap, long grace, List<Input> inputs) {

    /** The key of the last record, which closes every window; its own windows are not compared. */
    static final String FLUSH_KEY = "~flush";

    /** How far after the largest time of the stream the flush record is. */
    static final long FLUSH_DISTANCE = 100_000;

    enum WindowKind {
        TUMBLING,
        HOPPING,
        SESSION
    }

    /** A record to pipe: key, value, timestamp. Its offset in the input topic is its index. */
    record Input(String key, long value, long timestamp) {
        @Override
        public String toString() {
            return key + ":" + value + "@" + timestamp;
        }
    }

    /** The stream of {@code kind} for {@code seed}: the same seed always gives the same stream. */
    static OracleStream generate(WindowKind kind, long seed) {
        Random random = new Random(seed * 1_000_003L + kind.ordinal());
        long size = kind == WindowKind.HOPPING ? 2 + random.nextInt(19) : 1 + random.nextInt(20);
        long advance = kind == WindowKind.HOPPING ? 1 + random.nextInt((int) size - 1) : size;
        long gap = 1 + random.nextInt(15);
        long grace = random.nextInt(4) == 0 ? 0 : random.nextInt(16);
        int keys = 1 + random.nextInt(5);
        int count = 20 + random.nextInt(181);
        // how far times move forward per record, and how far back an out-of-order record jumps
        long span = kind == WindowKind.SESSION ? 2 * gap : size;
        long horizon = kind == WindowKind.SESSION ? 2 * gap + grace + 2 : size + grace + advance + 2;
        long max = random.nextBoolean() ? 0 : random.nextInt(50);
        List<Input> inputs = new ArrayList<>(count + 1);
        for (int i = 0; i < count; i++) {
            String key = "k" + random.nextInt(keys);
            long value = random.nextInt(100) - 10;
            long ts;
            if (i > 0 && random.nextInt(4) == 0) {
                ts = Math.max(0, max - random.nextInt((int) horizon + 1)); // out of order, maybe late
            } else {
                ts = max + (random.nextInt(5) == 0 ? 0 : random.nextInt((int) span + 1));
            }
            max = Math.max(max, ts);
            inputs.add(new Input(key, value, ts));
        }
        inputs.add(new Input(FLUSH_KEY, 0, max + FLUSH_DISTANCE));
        return new OracleStream(seed, kind, size, advance, gap, grace, List.copyOf(inputs));
    }

    /** A hand-written stream (seed -1): {@code records} then the flush record. */
    static OracleStream of(WindowKind kind, long size, long advance, long gap, long grace, Input... records) {
        List<Input> inputs = new ArrayList<>(List.of(records));
        long max = inputs.stream().mapToLong(Input::timestamp).max().orElse(0);
        inputs.add(new Input(FLUSH_KEY, 0, max + FLUSH_DISTANCE));
        return new OracleStream(-1, kind, size, advance, gap, grace, List.copyOf(inputs));
    }

    /** This stream without the records at {@code offsets}: the records after each move up by one offset. */
    OracleStream without(Set<Integer> offsets) {
        List<Input> kept = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            if (!offsets.contains(i)) {
                kept.add(inputs.get(i));
            }
        }
        return new OracleStream(seed, kind, size, advance, gap, grace, List.copyOf(kept));
    }

    /**
     * The largest time among {@code inputs[0, offset)}: the watermark (Kafka Streams' stream time)
     * that the record at {@code offset} meets.
     */
    long watermarkBefore(int offset) {
        long max = Long.MIN_VALUE;
        for (int i = 0; i < offset; i++) {
            max = Math.max(max, inputs.get(i).timestamp());
        }
        return max;
    }

    @Override
    public String toString() {
        String windows = switch (kind) {
            case TUMBLING -> "size=" + size;
            case HOPPING -> "size=" + size + " advance=" + advance;
            case SESSION -> "gap=" + gap;
        };
        return kind + " seed=" + seed + " " + windows + " grace=" + grace + " records (key:value@time, offset order)="
                + inputs.stream().map(Input::toString).collect(Collectors.joining(" "));
    }
}
