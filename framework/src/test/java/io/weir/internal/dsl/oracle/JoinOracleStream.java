package io.weir.internal.dsl.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * One randomly generated input of the join oracle tests: the operation and the records to pipe,
 * interleaved over its input topics in one order, the same on both sides (Weir's
 * {@code TestDriver} and Kafka Streams' {@code TopologyTestDriver}). Every topic has one partition.
 *
 * <p>Records are spread over 1 to 4 keys, so that keys repeat and rows change; values are small
 * ({@code 0..8}), so that a re-keyed aggregation's groups ({@link #group}) change as rows change.
 * Timestamps mostly increase, with jumps back (out of order within a topic and across the two).
 * Table topics carry tombstones (some for rows that do not exist); the stream of a stream-table
 * join carries records with a {@code null} value or a {@code null} key; any topic may carry a
 * record with a {@code null} key (a table cannot take it: see {@link JoinOracleComparison}).
 *
 * @param seed   the seed that reproduces this input ({@link #generate}); -1 for a hand-written one
 * @param kind   the operation
 * @param inputs the records, in the order they are piped
 */
record JoinOracleStream(long seed, Kind kind, List<Input> inputs) {

    /** The stream of a stream-table join. */
    static final String STREAM = "stream";
    /** The table of a stream-table join, and the table a grouped kind aggregates. */
    static final String TABLE = "table";
    /** The left table of a table-table join. */
    static final String LEFT = "left";
    /** The right table of a table-table join. */
    static final String RIGHT = "right";
    /** Where every kind writes its results. */
    static final String OUT = "out";

    /** The operations under test: {@link JoinKafkaStreamsOracle} and {@link JoinWeirSide} build each the same way. */
    enum Kind {
        /** {@code stream.join(table)}. */
        STREAM_TABLE_INNER,
        /** {@code stream.leftJoin(table.filter(...).mapValues(...))}: a derived table in a stream-table join. */
        STREAM_TABLE_LEFT,
        /** {@code left.join(right)}, materialized. */
        TABLE_INNER,
        /** {@code left.leftJoin(right.filter(...).mapValues(...))}, materialized: a derived table joined. */
        TABLE_LEFT,
        /** {@code left.outerJoin(right)}, materialized. */
        TABLE_OUTER,
        /** {@code table.groupBy(row to its value's group).count()}. */
        GROUP_COUNT,
        /** {@code table.filter(...).mapValues(...).groupBy(row to its value's group).aggregate(...)}: a sum. */
        GROUP_SUM;

        boolean streamTable() {
            return this == STREAM_TABLE_INNER || this == STREAM_TABLE_LEFT;
        }

        boolean tableTable() {
            return this == TABLE_INNER || this == TABLE_LEFT || this == TABLE_OUTER;
        }

        boolean grouped() {
            return this == GROUP_COUNT || this == GROUP_SUM;
        }

        /** The input topics, the left (or only) one first. */
        List<String> topics() {
            if (streamTable()) {
                return List.of(STREAM, TABLE);
            }
            return tableTable() ? List.of(LEFT, RIGHT) : List.of(TABLE);
        }

        /** Whether {@code topic} is read as a table (a {@code null} value deletes a row). */
        boolean isTable(String topic) {
            return !topic.equals(STREAM);
        }
    }

    /** A record to pipe into {@code topic}. Its index in {@link #inputs} is the order it is piped in. */
    record Input(String topic, String key, Long value, long timestamp) {
        @Override
        public String toString() {
            return topic + ":" + key + "=" + value + "@" + timestamp;
        }
    }

    /** The join results of both sides: the two values (absent ones as {@code null}) joined by {@code &}. */
    static String joined(Long left, Long right) {
        return left + "&" + right;
    }

    /** The group a grouped kind files a row's value under: one of three, so rows move between them. */
    static String group(long value) {
        return "g" + Math.floorMod(value, 3);
    }

    /** The rows GROUP_SUM keeps ({@code filter}) before scaling them ({@code mapValues}). */
    static boolean kept(long value) {
        return value % 4 != 3;
    }

    /** GROUP_SUM's {@code mapValues}. */
    static long scaled(long value) {
        return value * 10;
    }

    /** The rows the derived table of STREAM_TABLE_LEFT and TABLE_LEFT (the right side) keeps ({@code filter}). */
    static boolean derivedKept(long value) {
        return value % 3 != 0;
    }

    /** The {@code mapValues} of that derived table. */
    static long derived(long value) {
        return value + 100;
    }

    /** The derived table's value of a row ({@code null} for none, or one its filter drops). */
    static Long derivedValue(Long row) {
        return row == null || !derivedKept(row) ? null : derived(row);
    }

    /** The input of {@code kind} for {@code seed}: the same seed always gives the same input. */
    static JoinOracleStream generate(Kind kind, long seed) {
        Random random = new Random(seed * 1_000_003L + kind.ordinal() * 7_919L);
        int keys = 1 + random.nextInt(4);
        int count = 10 + random.nextInt(51);
        int tombstonePercent = 5 + random.nextInt(21);
        List<String> topics = kind.topics();
        long max = random.nextInt(20);
        List<Input> inputs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String topic = topics.get(random.nextInt(topics.size()));
            String key = "k" + random.nextInt(keys);
            Long value = (long) random.nextInt(9);
            int dice = random.nextInt(100);
            if (dice < 2) {
                key = null;
            } else if (dice < 2 + tombstonePercent / (kind.isTable(topic) ? 1 : 2)) {
                value = null;
            } else if (!kind.isTable(topic) && dice >= 94) {
                key = null;
            }
            long ts;
            if (i > 0 && random.nextInt(4) == 0) {
                ts = Math.max(0, max - random.nextInt(15)); // out of order
            } else {
                ts = max + random.nextInt(6);
            }
            max = Math.max(max, ts);
            inputs.add(new Input(topic, key, value, ts));
        }
        return new JoinOracleStream(seed, kind, List.copyOf(inputs));
    }

    /** A hand-written input (seed -1). */
    static JoinOracleStream of(Kind kind, Input... inputs) {
        return new JoinOracleStream(-1, kind, List.of(inputs));
    }

    @Override
    public String toString() {
        return kind + " seed=" + seed + " records (topic:key=value@time, piped in this order)="
                + inputs.stream().map(Input::toString).collect(Collectors.joining(" "));
    }
}
