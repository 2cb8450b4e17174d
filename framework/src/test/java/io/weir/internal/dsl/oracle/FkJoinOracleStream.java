package io.weir.internal.dsl.oracle;

import io.weir.internal.dsl.oracle.JoinOracleStream.Input;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * One randomly generated input of the foreign-key join oracle: records piped into the left table
 * ({@link JoinOracleStream#LEFT}, keys {@code k0..k5}) and the right table
 * ({@link JoinOracleStream#RIGHT}, keys {@code r0..r3}), interleaved in one order, the same on both
 * sides. A left value {@code v} refers to the right row {@link #foreignKey}{@code (v)}: several left
 * rows share one right row (a right change fans out), a changed left value often moves its row to
 * another right row, and some values refer to none ({@code null}) or to {@code r3}, which the
 * right table rarely has. Both tables carry tombstones (some for absent rows) and rows rewritten
 * with their value; timestamps mostly increase, with jumps back.
 *
 * @param seed   the seed that reproduces this input ({@link #generate})
 * @param kind   the join
 * @param inputs the records, in the order they are piped
 */
record FkJoinOracleStream(long seed, Kind kind, List<Input> inputs) {

    /** The joins under test: {@link FkJoinKafkaStreamsOracle} and {@link FkJoinWeirSide} build each the same way. */
    enum Kind {
        /** {@code left.join(right, foreignKey, joiner)}, materialized. */
        INNER,
        /** {@code left.leftJoin(right, foreignKey, joiner)}, materialized. */
        LEFT
    }

    /** The right row a left value refers to: {@code null} for one value in six, {@code r3} (rare on the right) for one. */
    static String foreignKey(long leftValue) {
        long v = Math.floorMod(leftValue, 6);
        return v == 5 ? null : "r" + Math.min(v, 3);
    }

    /** The input of {@code kind} for {@code seed}: the same seed always gives the same input. */
    static FkJoinOracleStream generate(Kind kind, long seed) {
        Random random = new Random(seed * 1_000_003L + kind.ordinal() * 7_919L + 17);
        int leftKeys = 1 + random.nextInt(6);
        int count = 10 + random.nextInt(61);
        int tombstonePercent = 5 + random.nextInt(21);
        long max = random.nextInt(20);
        List<Input> inputs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean left = random.nextInt(5) < 3;
            String key =
                    left ? "k" + random.nextInt(leftKeys) : "r" + (random.nextInt(10) == 0 ? 3 : random.nextInt(3));
            Long value = random.nextInt(100) < tombstonePercent ? null : (long) random.nextInt(12);
            long ts = i > 0 && random.nextInt(4) == 0 ? Math.max(0, max - random.nextInt(15)) : max + random.nextInt(6);
            max = Math.max(max, ts);
            inputs.add(new Input(left ? JoinOracleStream.LEFT : JoinOracleStream.RIGHT, key, value, ts));
        }
        return new FkJoinOracleStream(seed, kind, List.copyOf(inputs));
    }

    @Override
    public String toString() {
        return kind + " seed=" + seed + " records (topic:key=value@time, piped in this order)="
                + inputs.stream().map(Input::toString).collect(Collectors.joining(" "));
    }
}
