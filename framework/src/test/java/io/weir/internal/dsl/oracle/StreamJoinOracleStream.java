package io.weir.internal.dsl.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * One randomly generated input of the stream-stream join oracle: the join (inner, left or outer),
 * its window ({@code before}, {@code after}, {@code grace}: Weir's allowed lateness, Kafka Streams'
 * grace period) and the records to pipe, interleaved over {@link #LEFT} and {@link #RIGHT} in one
 * order, the same on both sides. Every topic has one partition.
 *
 * <p>A record's value is its index in {@link #inputs}, so that a result names the records it
 * joined ({@code "3&7"}: input 3 of the left with input 7 of the right; {@code "3&null"}: input 3
 * unmatched). Records are spread over 1 to 3 keys; times mostly move forward by 0 to 4, with
 * records at the time and key of the one before (duplicates, on either side), records back within
 * the grace, exactly at its bound ({@code W - grace}, the oldest time that is not late) and beyond
 * it (late). A few records have no key or no value. Windows are symmetric, asymmetric
 * ({@code before != after}) or of time difference 0; the grace is 0 in a third of the inputs.
 * A generated input ends with a record of key {@link #FLUSH_KEY} on each side, far in the future,
 * so that every unmatched result of the records before is due by the end on both sides.
 *
 * @param seed   the seed that reproduces this input ({@link #generate}); -1 for a hand-written one
 * @param kind   the join
 * @param before how far before a left record a right record may be to join it, in ms
 * @param after  how far after a left record a right record may be, in ms
 * @param grace  the allowed lateness (grace period), in ms
 * @param inputs the records, in the order they are piped
 */
record StreamJoinOracleStream(long seed, Kind kind, long before, long after, long grace, List<Input> inputs) {

    static final String LEFT = "left";
    static final String RIGHT = "right";
    static final String OUT = "out";
    /** The key of the two records that end a generated input. */
    static final String FLUSH_KEY = "~flush";
    /** How far after the largest time of the input the two flush records are: past every window and grace. */
    static final long FLUSH_DISTANCE = 100;
    /** The join's name on the Weir side: its buffers are the window stores {@code pairs-left} and {@code pairs-right}. */
    static final String NAME = "pairs";

    enum Kind {
        INNER,
        LEFT,
        OUTER;

        /** Whether the unmatched records of {@code topic} give results. */
        boolean outer(String topic) {
            return this == OUTER || this == LEFT && topic.equals(StreamJoinOracleStream.LEFT);
        }
    }

    /** A record to pipe into {@code topic}; its value is its index, or {@code null}. */
    record Input(String topic, String key, Long value, long timestamp) {

        boolean left() {
            return topic.equals(LEFT);
        }

        /** True if it has a key and a value: only such a record can join. */
        boolean joinable() {
            return key != null && value != null;
        }

        @Override
        public String toString() {
            return (left() ? "L:" : "R:") + key + "=" + value + "@" + timestamp;
        }
    }

    /** The results of both sides: the left value, then the right, either {@code null} if missing. */
    static String joined(Long left, Long right) {
        return left + "&" + right;
    }

    /** The input of {@code kind} for {@code seed}: the same seed always gives the same input. */
    static StreamJoinOracleStream generate(Kind kind, long seed) {
        Random random = new Random(seed * 1_000_003L + kind.ordinal() * 7_919L + 17);
        long before;
        long after;
        int shape = random.nextInt(8);
        if (shape == 0) {
            before = 0; // time difference 0: only records at the same time join
            after = 0;
        } else if (shape <= 4) {
            before = 1 + random.nextInt(6);
            after = before;
        } else {
            before = random.nextInt(7);
            do {
                after = random.nextInt(7);
            } while (after == before);
        }
        long grace = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(6);
        int keys = 1 + random.nextInt(3);
        int count = 15 + random.nextInt(46);
        long max = random.nextInt(4);
        List<Input> inputs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String topic = random.nextBoolean() ? LEFT : RIGHT;
            String key = "k" + random.nextInt(keys);
            long ts;
            int how = random.nextInt(20);
            Input previous = i == 0 ? null : inputs.get(i - 1);
            if (previous != null && previous.key() != null && how < 3) {
                key = previous.key(); // a duplicate of the record before, on either side
                ts = previous.timestamp();
            } else if (i > 0 && how < 6) {
                ts = max - random.nextInt((int) grace + 1); // back within the grace, at its bound included
            } else if (i > 0 && how == 6) {
                ts = max - grace; // exactly the oldest time that is not late
            } else if (i > 0 && how < 9) {
                ts = max - grace - 1 - random.nextInt((int) (before + after + 4)); // late
            } else {
                ts = max + random.nextInt(5);
            }
            ts = Math.max(0, ts);
            max = Math.max(max, ts);
            Long value = (long) i;
            int dice = random.nextInt(100);
            if (dice < 2) {
                key = null;
            } else if (dice < 4) {
                value = null;
            }
            inputs.add(new Input(topic, key, value, ts));
        }
        inputs.add(new Input(LEFT, FLUSH_KEY, (long) count, max + FLUSH_DISTANCE));
        inputs.add(new Input(RIGHT, FLUSH_KEY, (long) count + 1, max + FLUSH_DISTANCE));
        return new StreamJoinOracleStream(seed, kind, before, after, grace, List.copyOf(inputs));
    }

    /**
     * A hand-written input (seed -1); records are given as {@code (topic, key, timestamp)} through
     * {@link #in}, valued with their index.
     */
    static StreamJoinOracleStream of(Kind kind, long before, long after, long grace, Input... inputs) {
        List<Input> indexed = new ArrayList<>(inputs.length);
        for (int i = 0; i < inputs.length; i++) {
            Input in = inputs[i];
            indexed.add(new Input(in.topic(), in.key(), in.value() == null ? null : (long) i, in.timestamp()));
        }
        return new StreamJoinOracleStream(-1, kind, before, after, grace, List.copyOf(indexed));
    }

    /** A record for {@link #of}, valued there with its index. */
    static Input in(String topic, String key, long timestamp) {
        return new Input(topic, key, 0L, timestamp);
    }

    /** A record without a value for {@link #of}. */
    static Input withoutValue(String topic, String key, long timestamp) {
        return new Input(topic, key, null, timestamp);
    }

    /** How far the other side's records may be after a record of {@code topic}: {@code after} for the left. */
    long afterOf(String topic) {
        return topic.equals(LEFT) ? after : before;
    }

    /** How far the other side's records may be before a record of {@code topic}. */
    long beforeOf(String topic) {
        return topic.equals(LEFT) ? before : after;
    }

    /**
     * The watermark (Kafka Streams' stream time) once the record at {@code index} is taken: the
     * largest time of {@code inputs[0, index]}, whatever their key, value or side.
     */
    long watermarkAt(int index) {
        long max = Long.MIN_VALUE;
        for (int i = 0; i <= index; i++) {
            max = Math.max(max, inputs.get(i).timestamp());
        }
        return max;
    }

    /** True if the record at {@code index} is late: it can join, and its time is below the watermark minus the grace. */
    boolean late(int index) {
        Input in = inputs.get(index);
        return in.joinable() && in.timestamp() < watermarkAt(index) - grace;
    }

    /** True if the two records' times are close enough to join (left's window). */
    boolean inWindow(Input left, Input right) {
        return right.timestamp() >= left.timestamp() - before && right.timestamp() <= left.timestamp() + after;
    }

    @Override
    public String toString() {
        return kind + " seed=" + seed + " before=" + before + " after=" + after + " grace=" + grace
                + " records (#index side:key=value@time, piped in this order)="
                + java.util.stream.IntStream.range(0, inputs.size())
                        .mapToObj(i -> "#" + i + " " + inputs.get(i))
                        .collect(Collectors.joining(" "));
    }
}
