package io.weir.internal.dsl.oracle;

import io.weir.internal.dsl.oracle.JoinOracleStream.Input;
import io.weir.internal.dsl.oracle.JoinOracleStream.Kind;
import io.weir.internal.dsl.oracle.JoinResults.Output;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;

/**
 * Compares what Weir and Kafka Streams wrote for one {@link JoinOracleStream}. Each check adds a
 * line to {@link #differences}; an empty list means the two agree.
 *
 * <p>The checks:
 * <ul>
 *   <li><b>results</b>: for every input, in order, the results it caused (key, value, timestamp)
 *       are the same as Kafka Streams', once the deliberate differences are applied to Kafka
 *       Streams' ({@link #asWeirDiffers}; each has its test in {@link JoinBoundariesTest}). As every
 *       topic has one partition, this is the whole output topic in order, across keys too;</li>
 *   <li><b>dead letters</b>: Weir dead-lettered exactly the table records without a key (Kafka
 *       Streams skips them; neither side has a result for them).</li>
 * </ul>
 */
final class JoinOracleComparison {

    private final JoinOracleStream stream;
    private final List<String> differences = new ArrayList<>();

    private JoinOracleComparison(JoinOracleStream stream) {
        this.stream = stream;
    }

    /** The differences between the two sides, empty if they agree. */
    static List<String> differences(JoinOracleStream stream, JoinResults kafka, JoinResults weir) {
        JoinOracleComparison c = new JoinOracleComparison(stream);
        c.compareResults(asWeirDiffers(stream, kafka), weir);
        c.compareDeadLetters(weir);
        return List.copyOf(c.differences);
    }

    /**
     * Kafka Streams' results as Weir produces them, with the deliberate differences applied (see
     * {@link JoinBoundariesTest}); each rewrite first checks that Kafka Streams' results are what
     * the difference says, and leaves them as they are otherwise, for the comparison to report.
     * <ol>
     *   <li><b>A tombstone for a row a table does not have</b> (table-table joins): Kafka Streams'
     *       table forwards it and the join recomputes the key's result from unchanged rows, so it
     *       writes the result again or a tombstone for a result that does not exist. Weir's table
     *       forwards nothing for it. Kafka Streams' results of such an input are removed if none of
     *       them changes the result table (each is the key's current result, or a tombstone for a
     *       key without one).</li>
     *   <li><b>A stream record with a {@code null} value in a left stream-table join</b>: Kafka
     *       Streams skips it; Weir joins it (every record of a left join gives a result), the
     *       joiner seeing {@code null} and the (derived) table's current value. The result Weir gives
     *       is computed from the input (the table's rows so far) where Kafka Streams wrote nothing.</li>
     *   <li><b>Timestamps of table-table join results and of re-keyed aggregates</b>: Weir stamps a
     *       result with the time of the change that caused it; Kafka Streams with the largest of
     *       that time and the times of what it combined (the other side's row, the aggregate's
     *       previous result). Kafka Streams' timestamps are checked to be that largest time (the
     *       other row's time as the input gave it; the aggregate's as Kafka Streams last stamped
     *       it), then replaced by the input's. Stream-table join results carry the stream record's
     *       time on both sides.</li>
     * </ol>
     */
    static JoinResults asWeirDiffers(JoinOracleStream stream, JoinResults kafka) {
        Kind kind = stream.kind();
        Rows rows = new Rows();
        Map<String, String> results = new HashMap<>(); // Kafka Streams' result table, as its outputs say
        Map<String, Long> resultTimes = new HashMap<>();
        List<List<Output>> rewritten = new ArrayList<>();
        for (int i = 0; i < stream.inputs().size(); i++) {
            Input in = stream.inputs().get(i);
            List<Output> outputs = kafka.outputs().get(i);
            List<Output> asWeir = outputs;
            boolean absentRowTombstone = kind.isTable(in.topic())
                    && in.key() != null
                    && in.value() == null
                    && rows.value(in.topic(), in.key()) == null;
            if (kind.tableTable()
                    && absentRowTombstone
                    && outputs.stream().allMatch(o -> Objects.equals(results.get(o.key()), o.value()))) {
                asWeir = List.of();
            } else if (kind == Kind.STREAM_TABLE_LEFT
                    && in.topic().equals(JoinOracleStream.STREAM)
                    && in.value() == null
                    && outputs.isEmpty()) {
                Long tableValue = JoinOracleStream.derivedValue(rows.value(JoinOracleStream.TABLE, in.key()));
                asWeir = List.of(new Output(in.key(), JoinOracleStream.joined(null, tableValue), in.timestamp()));
            } else if (kind.tableTable()) {
                Long otherTime = rows.visibleTime(kind, otherSide(in.topic()), in.key());
                long expected = otherTime == null ? in.timestamp() : Math.max(in.timestamp(), otherTime);
                asWeir = restamped(outputs, in, o -> expected);
            } else if (kind.grouped()) {
                asWeir = restamped(
                        outputs,
                        in,
                        o -> resultTimes.containsKey(o.key())
                                ? Math.max(in.timestamp(), resultTimes.get(o.key()))
                                : in.timestamp());
            }
            for (Output o : outputs) {
                results.put(o.key(), o.value());
                resultTimes.put(o.key(), o.timestamp());
            }
            rows.apply(in);
            rewritten.add(asWeir);
        }
        return new JoinResults(List.copyOf(rewritten), kafka.deadLettered());
    }

    /** The table-table join side other than {@code topic}. */
    private static String otherSide(String topic) {
        return topic.equals(JoinOracleStream.LEFT) ? JoinOracleStream.RIGHT : JoinOracleStream.LEFT;
    }

    /**
     * {@code outputs} stamped with the input's time, if each is stamped with the time
     * {@code expected} says Kafka Streams gives it; else unchanged.
     */
    private static List<Output> restamped(List<Output> outputs, Input in, ToLongFunction<Output> expected) {
        if (!outputs.stream().allMatch(o -> o.timestamp() == expected.applyAsLong(o))) {
            return outputs;
        }
        return outputs.stream()
                .map(o -> new Output(o.key(), o.value(), in.timestamp()))
                .toList();
    }

    /** The rows of each input table, with their times, as the inputs so far made them. */
    private static final class Rows {
        private final Map<String, Map<String, Input>> byTopic = new HashMap<>();

        Long value(String topic, String key) {
            Input row = row(topic, key);
            return row == null ? null : row.value();
        }

        /**
         * The time of the row of {@code key} that a join of {@code kind} sees on side {@code topic}:
         * null if it has none (TABLE_LEFT's right side sees only the rows its filter keeps).
         */
        Long visibleTime(Kind kind, String topic, String key) {
            Input row = row(topic, key);
            if (row == null
                    || kind == Kind.TABLE_LEFT
                            && topic.equals(JoinOracleStream.RIGHT)
                            && !JoinOracleStream.derivedKept(row.value())) {
                return null;
            }
            return row.timestamp();
        }

        private Input row(String topic, String key) {
            return key == null ? null : byTopic.getOrDefault(topic, Map.of()).get(key);
        }

        void apply(Input in) {
            if (in.key() == null || in.topic().equals(JoinOracleStream.STREAM)) {
                return; // a table skips a record without a key
            }
            Map<String, Input> rows = byTopic.computeIfAbsent(in.topic(), t -> new HashMap<>());
            if (in.value() == null) {
                rows.remove(in.key());
            } else {
                rows.put(in.key(), in);
            }
        }
    }

    private void compareResults(JoinResults kafka, JoinResults weir) {
        for (int i = 0; i < stream.inputs().size(); i++) {
            List<Output> k = kafka.outputs().get(i);
            List<Output> w = weir.outputs().get(i);
            if (!k.equals(w)) {
                differences.add("results of #" + i + " " + stream.inputs().get(i) + ": Kafka Streams (as Weir differs) "
                        + k + ", Weir " + w);
            }
        }
    }

    private void compareDeadLetters(JoinResults weir) {
        List<Integer> keyless = IntStream.range(0, stream.inputs().size())
                .filter(i -> stream.kind().isTable(stream.inputs().get(i).topic())
                        && stream.inputs().get(i).key() == null)
                .boxed()
                .toList();
        if (!keyless.equals(weir.deadLettered())) {
            differences.add("dead letters: Weir dead-lettered inputs " + weir.deadLettered()
                    + ", the table records without a key are " + keyless);
        }
    }

    /**
     * The input and both sides' results per input, for a failure message: Kafka Streams' as it
     * wrote them, then Weir's when they are not the same; a line ends with {@code <- differs} where
     * they differ after the deliberate differences are applied, {@code (a deliberate difference)}
     * where those explain it.
     */
    static String describe(JoinOracleStream stream, JoinResults kafka, JoinResults weir) {
        JoinResults asWeir = asWeirDiffers(stream, kafka);
        StringBuilder s = new StringBuilder("\n  #index input: Kafka Streams | Weir");
        for (int i = 0; i < stream.inputs().size(); i++) {
            List<Output> k = kafka.outputs().get(i);
            List<Output> w = weir.outputs().get(i);
            s.append("\n  #")
                    .append(i)
                    .append(' ')
                    .append(stream.inputs().get(i))
                    .append(": ")
                    .append(k);
            if (k.equals(w)) {
                s.append(" | same");
            } else {
                s.append(" | ")
                        .append(w)
                        .append(asWeir.outputs().get(i).equals(w) ? " (a deliberate difference)" : " <- differs");
            }
        }
        return s.toString();
    }
}
