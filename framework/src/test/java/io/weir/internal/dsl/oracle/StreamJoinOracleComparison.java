package io.weir.internal.dsl.oracle;

import io.weir.internal.dsl.oracle.JoinResults.Output;
import io.weir.internal.dsl.oracle.StreamJoinOracleStream.Input;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Compares what Weir and Kafka Streams did with one {@link StreamJoinOracleStream}: Kafka Streams'
 * results are rewritten into what Weir gives ({@link #asWeirDiffers}), each rewrite a deliberate
 * difference with its test in {@link StreamJoinBoundariesTest}, and each checked against what
 * Kafka Streams did: what it did that no difference explains is a difference of its own. Then
 * every input's results, in order, with values and timestamps, and the records Weir reported late
 * are compared with the rewritten ones.
 *
 * <p>The differences are numbered as in {@link StreamJoinBoundariesTest}. Values name input records ({@code "3&7"}, {@code "3&null"}), so a result says which records
 * it joined. {@code W} is the watermark once a record is taken (the largest time so far over both
 * inputs: Kafka Streams' stream time), {@code G} the grace. What Weir gives, from Kafka Streams':
 * <ul>
 *   <li><b>joins</b>: a record with key and value that is not late ({@code t >= W - G}) gives
 *       Kafka Streams' join results for it, in Kafka Streams' order, without
 *       <ol type="a">
 *         <li>those with a late record (difference 1: Kafka Streams joins late records both ways,
 *             a late record with what its store still holds, and a later record with late records
 *             it buffered), and with</li>
 *         <li>those Kafka Streams misses because its window store had not kept the other record
 *             (difference 4): it keeps a side's records only while {@code t > (that side's largest time) -
 *             (before + after + G)}, and shows none older, so that at time difference 0 a record
 *             at exactly {@code W - G} is not buffered (with no grace, no record ever is), and
 *             with {@code before = 0} a record at {@code W - G - after} is gone when a record at
 *             {@code W - G} of the other side could still join it. Weir buffers every record that
 *             is not late. These are inserted in the buffer's order (by time, then arrival).</li>
 *       </ol>
 *       A late record gives nothing and is counted late;</li>
 *   <li><b>unmatched results</b> (left and outer joins): a record of an outer side that is not late
 *       and joined nothing gives {@code joiner(value, null)} at the first input whose watermark
 *       passes {@code t + after + G} ({@code after} as seen from its side), before that input's own
 *       results, the left side's first, then the right's, each by time, key and arrival. Kafka
 *       Streams must have emitted it too, at that input or later (difference 2) (it emits them only at a record
 *       with a key and value at stream time), or at once when {@code t + after < W} on arrival (difference 3);
 *       or it joined the record only with a late one. An unmatched result Kafka Streams emitted for
 *       a record Weir joined is explained only if it was emitted at once on arrival (difference 3:
 *       the join came after) or if Kafka
 *       Streams joined the record with nothing that is not late (rewrite b above);</li>
 *   <li><b>records without a key or value</b>: never joined on either side; on an outer side, Weir
 *       gives {@code joiner(value, null)} at once for both, Kafka Streams only for a record with a
 *       value and no key (difference 5: it counts the others dropped);</li>
 *   <li><b>dropped records</b>: Kafka Streams' {@code dropped-records-total} rises by one for a
 *       record without a key or value that it does not join (above), and by one for a record with
 *       a key that its window store refuses ({@code t <= (that side's largest time) - (before +
 *       after + G)}), whose join results it gives all the same; Weir writes exactly its late
 *       records to the late-records topic. Every record with a value that the store refuses is
 *       late in Weir, except at time difference 0 the record at exactly {@code W - G}.</li>
 * </ul>
 */
final class StreamJoinOracleComparison {

    /** The order of the unmatched results due at one watermark: the left side's, then the right's, each by time, key, arrival. */
    private static final Comparator<Output> WEIR_UNMATCHED_ORDER = Comparator.comparing(
                    (Output o) -> Pair.parse(o.value()).left() < 0)
            .thenComparingLong(Output::timestamp)
            .thenComparing(Output::key)
            .thenComparingInt(o ->
                    Math.max(Pair.parse(o.value()).left(), Pair.parse(o.value()).right()));

    private final StreamJoinOracleStream stream;
    private final StreamJoinResults kafka;
    private final List<Input> inputs;
    private final List<String> unexplained = new ArrayList<>();
    /** Per record, Kafka Streams' join results with it. */
    private final Map<Integer, List<Pair>> kafkaJoinsOf = new HashMap<>();
    /** Per record with key and value, the inputs at which Kafka Streams emitted it unmatched. */
    private final Map<Integer, List<Integer>> kafkaUnmatchedAt = new HashMap<>();
    /** Per record, the first input at which Weir joins it (as rewritten). */
    private final Map<Integer, Integer> firstJoin = new HashMap<>();

    private StreamJoinOracleComparison(StreamJoinOracleStream stream, StreamJoinResults kafka) {
        this.stream = stream;
        this.kafka = kafka;
        this.inputs = stream.inputs();
    }

    /** Kafka Streams' results as Weir gives them, and what Kafka Streams did that no deliberate difference explains. */
    record Rewritten(StreamJoinResults asWeir, List<String> unexplained) {}

    /** The differences between the two sides, empty if they agree. */
    static List<String> differences(StreamJoinOracleStream stream, StreamJoinResults kafka, StreamJoinResults weir) {
        Rewritten expected = asWeirDiffers(stream, kafka);
        List<String> differences = new ArrayList<>(expected.unexplained());
        for (int i = 0; i < stream.inputs().size(); i++) {
            List<Output> e = expected.asWeir().outputs().get(i);
            List<Output> w = weir.outputs().get(i);
            if (!e.equals(w)) {
                differences.add("results of #" + i + " " + stream.inputs().get(i) + ": Kafka Streams (as Weir differs) "
                        + e + ", Weir " + w);
            }
            if (!expected.asWeir().dropped().get(i).equals(weir.dropped().get(i))) {
                differences.add("late records of #" + i + " " + stream.inputs().get(i) + ": expected "
                        + expected.asWeir().dropped().get(i) + ", Weir wrote "
                        + weir.dropped().get(i));
            }
        }
        return List.copyOf(differences);
    }

    /** Kafka Streams' results with the deliberate differences applied (see the class comment). */
    static Rewritten asWeirDiffers(StreamJoinOracleStream stream, StreamJoinResults kafka) {
        StreamJoinOracleComparison c = new StreamJoinOracleComparison(stream, kafka);
        StreamJoinResults asWeir = c.rewrite();
        return new Rewritten(asWeir, List.copyOf(c.unexplained));
    }

    /** A join result as its two record indexes, or an unmatched one as one of them and -1. */
    private record Pair(int left, int right) {
        static Pair parse(String value) {
            String[] parts = value.split("&", -1);
            return new Pair(index(parts[0]), index(parts[1]));
        }

        private static int index(String part) {
            return part.equals("null") ? -1 : Integer.parseInt(part);
        }

        boolean joined() {
            return left >= 0 && right >= 0;
        }

        int other(int index) {
            return left == index ? right : left;
        }
    }

    private StreamJoinResults rewrite() {
        checkDrops();
        List<List<Output>> joins = joinsAsWeir();
        List<List<Output>> unmatched = unmatchedAsWeir();
        List<List<Output>> outputs = new ArrayList<>(inputs.size());
        List<Integer> late = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            List<Output> at = new ArrayList<>(unmatched.get(i));
            Input in = inputs.get(i);
            if (!in.joinable()) {
                if (stream.kind().outer(in.topic())) {
                    at.add(unmatched(i)); // difference 5 for a record without a value
                }
            } else {
                at.addAll(joins.get(i));
            }
            outputs.add(List.copyOf(at));
            late.add(stream.late(i) ? 1 : 0);
        }
        return new StreamJoinResults(List.copyOf(outputs), List.copyOf(late));
    }

    /**
     * Per input, Kafka Streams' join results of the record, rewritten (differences 1 and 4); reads
     * its join and unmatched results into {@link #kafkaJoinsOf} and {@link #kafkaUnmatchedAt}, and
     * where each record first joins in Weir into {@link #firstJoin}.
     */
    private List<List<Output>> joinsAsWeir() {
        List<List<Output>> joins = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            List<Output> own = new ArrayList<>();
            for (Output o : kafka.outputs().get(i)) {
                Pair p = Pair.parse(o.value());
                if (p.joined()) {
                    kafkaJoinsOf
                            .computeIfAbsent(p.left(), r -> new ArrayList<>())
                            .add(p);
                    kafkaJoinsOf
                            .computeIfAbsent(p.right(), r -> new ArrayList<>())
                            .add(p);
                    if (checkJoin(i, o, p) && !stream.late(i) && !stream.late(p.other(i))) {
                        own.add(o);
                    }
                    continue;
                }
                int r = p.left() >= 0 ? p.left() : p.right();
                if (inputs.get(r).joinable()) {
                    kafkaUnmatchedAt.computeIfAbsent(r, x -> new ArrayList<>()).add(i);
                    if (!o.equals(unmatched(r))) {
                        unexplained.add("Kafka Streams wrote " + o + " at #" + i + ", not " + unmatched(r));
                    }
                } else if (r != i || !o.equals(unmatched(r))) {
                    unexplained.add("Kafka Streams wrote " + o + " at #" + i + " for #" + r + ", a record that"
                            + " cannot join");
                }
            }
            if (inputs.get(i).joinable() && !stream.late(i)) {
                insertMissedJoins(i, own);
            }
            for (Output o : own) {
                Pair p = Pair.parse(o.value());
                firstJoin.putIfAbsent(p.left(), i);
                firstJoin.putIfAbsent(p.right(), i);
            }
            joins.add(own);
        }
        return joins;
    }

    /**
     * Per input, the unmatched results due there in Weir, in Weir's order; checks Kafka Streams'
     * unmatched results against them (differences 1 to 4).
     */
    private List<List<Output>> unmatchedAsWeir() {
        List<List<Output>> due = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            due.add(new ArrayList<>());
        }
        for (int r = 0; r < inputs.size(); r++) {
            Input in = inputs.get(r);
            if (!stream.kind().outer(in.topic())) {
                if (kafkaUnmatchedAt.containsKey(r)) {
                    unexplained.add("Kafka Streams emitted #" + r + " " + in + " unmatched, on an inner side");
                }
                continue;
            }
            if (!in.joinable()) {
                continue;
            }
            int dueAt = dueIndex(r);
            int joinedAt = firstJoin.getOrDefault(r, Integer.MAX_VALUE);
            boolean weirUnmatched = !stream.late(r) && dueAt >= 0 && joinedAt > dueAt;
            if (weirUnmatched) {
                due.get(dueAt).add(unmatched(r));
                if (joinedAt != Integer.MAX_VALUE) {
                    unexplained.add("the rewrite joins #" + r + " " + in + " at #" + joinedAt + ", after its unmatched"
                            + " result was due at #" + dueAt);
                }
            }
            checkUnmatched(
                    r,
                    dueAt,
                    weirUnmatched,
                    joinedAt != Integer.MAX_VALUE,
                    kafkaUnmatchedAt.getOrDefault(r, List.of()),
                    kafkaJoinsOf.getOrDefault(r, List.of()));
        }
        due.forEach(at -> at.sort(WEIR_UNMATCHED_ORDER));
        return due;
    }

    /** Checks that a join result Kafka Streams wrote at {@code i} joins {@code i} with a record Weir would join it with. */
    private boolean checkJoin(int i, Output o, Pair p) {
        if (p.left() != i && p.right() != i || p.left() >= inputs.size() || p.right() >= inputs.size()) {
            unexplained.add("Kafka Streams wrote " + o + " at #" + i + ", a result of other records");
            return false;
        }
        Input left = inputs.get(p.left());
        Input right = inputs.get(p.right());
        boolean ok = left.left()
                && !right.left()
                && p.other(i) < i
                && Objects.equals(left.key(), right.key())
                && Objects.equals(o.key(), left.key())
                && stream.inWindow(left, right)
                && o.timestamp() == Math.max(left.timestamp(), right.timestamp());
        if (!ok) {
            unexplained.add("Kafka Streams wrote " + o + " at #" + i + ", not a pair of the window");
        }
        return ok;
    }

    /**
     * Rewrite (b): adds to the join results of the record at {@code i} those with records Weir
     * buffered and Kafka Streams' store did not show, each where the buffer's order puts it.
     */
    private void insertMissedJoins(int i, List<Output> own) {
        Input x = inputs.get(i);
        for (int y = 0; y < i; y++) {
            Input other = inputs.get(y);
            if (other.left() == x.left()
                    || !other.joinable()
                    || stream.late(y)
                    || !other.key().equals(x.key())) {
                continue;
            }
            Input left = x.left() ? x : other;
            Input right = x.left() ? other : x;
            if (!stream.inWindow(left, right) || kafkaShows(y, i)) {
                continue;
            }
            Output missed = new Output(
                    x.key(),
                    StreamJoinOracleStream.joined(left.value(), right.value()),
                    Math.max(x.timestamp(), other.timestamp()));
            int at = 0;
            while (at < own.size() && partnerOrder(i, own.get(at)) < partnerOrder(i, missed)) {
                at++;
            }
            own.add(at, missed);
        }
    }

    /** Where the other record of a result of {@code i} is in the buffer: by time, then arrival. */
    private long partnerOrder(int i, Output o) {
        int partner = Pair.parse(o.value()).other(i);
        return inputs.get(partner).timestamp() * inputs.size() + partner;
    }

    /** True if Kafka Streams' window store shows record {@code y} when the record at {@code i} looks for it. */
    private boolean kafkaShows(int y, int i) {
        long retention = stream.before() + stream.after() + stream.grace();
        return inputs.get(y).timestamp() > kafkaSideTime(inputs.get(y).topic(), y) - retention
                && inputs.get(y).timestamp() > kafkaSideTime(inputs.get(y).topic(), i) - retention;
    }

    /**
     * The largest time Kafka Streams' window store of {@code topic} has seen once the input at
     * {@code i} is processed: of the records of that side with a key, with or without a value.
     */
    private long kafkaSideTime(String topic, int i) {
        long max = Long.MIN_VALUE;
        for (int j = 0; j <= i; j++) {
            Input in = inputs.get(j);
            if (in.topic().equals(topic) && in.key() != null) {
                max = Math.max(max, in.timestamp());
            }
        }
        return max;
    }

    /** The input at which Weir emits record {@code r} unmatched: the first whose watermark passes {@code t + after + G}; -1 if none. */
    private int dueIndex(int r) {
        Input in = inputs.get(r);
        long bound = in.timestamp() + stream.afterOf(in.topic()) + stream.grace();
        for (int j = r + 1; j < inputs.size(); j++) {
            if (stream.watermarkAt(j) > bound) {
                return j;
            }
        }
        return -1;
    }

    /** Record {@code r} as an unmatched result. */
    private Output unmatched(int r) {
        Input in = inputs.get(r);
        String value = in.left()
                ? StreamJoinOracleStream.joined(in.value(), null)
                : StreamJoinOracleStream.joined(null, in.value());
        return new Output(in.key(), value, in.timestamp());
    }

    /** Kafka Streams emitted unmatched results at once when the record's window was behind stream time on arrival. */
    private boolean kafkaEmitsAtOnce(int r) {
        Input in = inputs.get(r);
        return in.timestamp() + stream.afterOf(in.topic()) < stream.watermarkAt(r);
    }

    /**
     * Checks that Kafka Streams' unmatched results of record {@code r} (outer side, with key and
     * value) are explained: see the class comment.
     *
     * @param due            where Weir's is due, or -1 if the watermark never passes its bound
     * @param weirUnmatched  whether Weir emits it unmatched (at {@code due})
     * @param weirJoined     whether Weir joins it
     * @param kafkaAt        where Kafka Streams emitted it unmatched
     * @param kafkaJoins     Kafka Streams' join results with it
     */
    private void checkUnmatched(
            int r, int due, boolean weirUnmatched, boolean weirJoined, List<Integer> kafkaAt, List<Pair> kafkaJoins) {
        String what = "#" + r + " " + inputs.get(r);
        if (kafkaAt.size() > 1) {
            unexplained.add("Kafka Streams emitted " + what + " unmatched " + kafkaAt.size() + " times, at " + kafkaAt);
            return;
        }
        if (stream.late(r)) {
            return; // difference (a): Weir reports it late and gives no result
        }
        Integer k = kafkaAt.isEmpty() ? null : kafkaAt.get(0);
        boolean atOnce = k != null && k == r && kafkaEmitsAtOnce(r);
        boolean kafkaJoinedOnlyLate = kafkaJoins.stream().allMatch(p -> stream.late(p.other(r)));
        if (weirUnmatched) {
            if (k == null && (kafkaJoins.isEmpty() || !kafkaJoinedOnlyLate)) {
                unexplained.add("Kafka Streams never emitted " + what + " unmatched, nor joined it with a late record"
                        + " (Weir: at #" + due + ")");
            } else if (k != null && !atOnce && k < due) {
                unexplained.add("Kafka Streams emitted " + what + " unmatched at #" + k + ", before Weir's #" + due);
            }
        } else if (k != null && !atOnce && !(weirJoined && kafkaJoinedOnlyLate && due >= 0 && k >= due)) {
            unexplained.add("Kafka Streams emitted " + what + " unmatched at #" + k + " where Weir "
                    + (weirJoined ? "joins it" : "emits nothing (due at #" + due + ")"));
        }
    }

    /**
     * Checks Kafka Streams' dropped records against what the class comment says it drops, and that
     * each record it refused to buffer is late for Weir (but at time difference 0).
     */
    private void checkDrops() {
        long retention = stream.before() + stream.after() + stream.grace();
        for (int i = 0; i < inputs.size(); i++) {
            Input in = inputs.get(i);
            boolean joinedAsUnmatched = stream.kind().outer(in.topic()) && in.key() == null && in.value() != null;
            int skipped = !in.joinable() && !joinedAsUnmatched ? 1 : 0;
            boolean refused = in.key() != null && in.timestamp() <= kafkaSideTime(in.topic(), i) - retention;
            int expected = skipped + (refused ? 1 : 0);
            if (kafka.dropped().get(i) != expected) {
                unexplained.add("Kafka Streams dropped " + kafka.dropped().get(i) + " at #" + i + " " + in
                        + ", expected " + expected);
            }
            boolean boundary =
                    stream.before() + stream.after() == 0 && in.timestamp() == stream.watermarkAt(i) - stream.grace();
            if (refused && in.joinable() && !stream.late(i) && !boundary) {
                unexplained.add("Kafka Streams refused to buffer #" + i + " " + in + ", which is not late");
            }
        }
    }

    /**
     * The input and, per record, Kafka Streams' results as it wrote them and Weir's when they are
     * not the same; a line ends with {@code <- differs} where Weir's are not Kafka Streams' as
     * rewritten ({@code expected}), {@code (a deliberate difference)} where the rewrite explains them.
     */
    static String describe(StreamJoinOracleStream stream, StreamJoinResults kafka, StreamJoinResults weir) {
        Rewritten rewritten = asWeirDiffers(stream, kafka);
        StringBuilder s = new StringBuilder("\n  #index input W: Kafka Streams (dropped) | Weir (late)");
        for (int i = 0; i < stream.inputs().size(); i++) {
            List<Output> k = kafka.outputs().get(i);
            List<Output> w = weir.outputs().get(i);
            List<Output> e = rewritten.asWeir().outputs().get(i);
            s.append("\n  #")
                    .append(i)
                    .append(' ')
                    .append(stream.inputs().get(i))
                    .append(" W=")
                    .append(stream.watermarkAt(i))
                    .append(": ")
                    .append(k)
                    .append(" (")
                    .append(kafka.dropped().get(i))
                    .append(')');
            if (k.equals(w) && kafka.dropped().get(i).equals(weir.dropped().get(i))) {
                s.append(" | same");
            } else {
                s.append(" | ")
                        .append(w)
                        .append(" (")
                        .append(weir.dropped().get(i))
                        .append(')');
                boolean asExpected = e.equals(w)
                        && rewritten
                                .asWeir()
                                .dropped()
                                .get(i)
                                .equals(weir.dropped().get(i));
                s.append(asExpected ? " (a deliberate difference)" : " <- differs, expected " + e);
            }
        }
        rewritten.unexplained().forEach(u -> s.append("\n  unexplained: ").append(u));
        return s.toString();
    }
}
