package io.weir.internal.dsl.oracle;

import io.weir.internal.dsl.oracle.Emitted.Window;
import io.weir.internal.dsl.oracle.OracleStream.Input;
import io.weir.internal.dsl.oracle.OracleStream.WindowKind;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Weir's rule for sessions that Kafka Streams does not have (DESIGN.md: a session that has fired
 * and closed is never extended or overlapped; a record that would touch it is late), applied to
 * Kafka Streams: a record at {@code ts} within the gap of a closed session of its key
 * ({@code start - gap <= ts <= end + gap}, closed: {@code end + gap + grace <=} the stream time
 * before the record) is late in Weir. Kafka Streams' store no longer returns a closed session, so
 * it accepts such a record unless its session ends too early: it starts a session beside the
 * closed one, extends an open one over its gap, or, at exactly {@code W - gap - grace}, replaces a
 * closed session {@code [ts, ts]} and emits that window a second time.
 *
 * <p>Kafka Streams itself says what Weir gives: it runs the stream without the records the rule
 * makes late ({@link KafkaStreamsOracle#run(OracleStream)}, which records its sessions), and those
 * records are the ones within the gap of a closed session among the sessions that run had before
 * them. Leaving a record out changes
 * the sessions after it, so this repeats until the records left out are exactly those: each run
 * settles at least the first record on which the one before was wrong, so it ends, and it ends
 * with the one set that Weir, deciding record by record, reports late. Those records do not move
 * the stream time (each is within {@code gap} after a session closed before it), so the others
 * meet the same watermark with or without them.
 */
final class ClosedSessionRule {

    /**
     * The rule applied to one stream.
     *
     * @param results Kafka Streams' results with the records the rule makes late left out, and
     *                each of those counted as dropped by both aggregations at its offset
     * @param late    the offsets of the records the rule makes late
     * @param lateFor for those of them whose session does not end too early anyway (which Kafka
     *                Streams accepted): the closed session Weir reports each late for, its key's
     *                last closed session
     * @param runs    how many runs of Kafka Streams settled the set, the one given included
     */
    record Applied(Results results, Set<Integer> late, Map<Integer, Window> lateFor, int runs) {}

    private ClosedSessionRule() {}

    /** The rule applied to {@code stream}, whose run by {@link KafkaStreamsOracle#run(OracleStream)} is {@code kafka}. */
    static Applied apply(OracleStream stream, Results kafka) {
        if (stream.kind() != WindowKind.SESSION
                || kafka.sessionUpdates().size() != stream.inputs().size()) {
            throw new IllegalArgumentException(
                    "the rule needs Kafka Streams' run of a session stream, with its" + " session updates: " + stream);
        }
        Set<Integer> late = new TreeSet<>();
        Results run = kafka;
        for (int runs = 1; ; runs++) {
            Replay replay = new Replay(stream, late, run);
            if (replay.touching.equals(late)) {
                return new Applied(
                        withLeftOutDropped(run, stream, late), Set.copyOf(late), Map.copyOf(replay.lateFor), runs);
            }
            if (runs > stream.inputs().size()) {
                throw new IllegalStateException("the records within the gap of a closed session did not settle"
                        + " after " + runs + " runs of " + stream);
            }
            late = replay.touching;
            run = KafkaStreamsOracle.run(stream.without(late));
        }
    }

    /** Kafka Streams' results over the records kept, with the offsets of the full stream. */
    private static Results withLeftOutDropped(Results kept, OracleStream stream, Set<Integer> late) {
        int[] dropped = new int[stream.inputs().size()];
        int keptOffset = 0;
        for (int i = 0; i < dropped.length; i++) {
            dropped[i] = late.contains(i) ? 2 : kept.droppedPerOffset()[keptOffset++]; // count and sum
        }
        return new Results(kept.counts(), kept.sums(), dropped, kept.late(), kept.sessionUpdates());
    }

    /**
     * One pass over the full stream with the sessions of a run that left out {@code leftOut}: which
     * records are within the gap of a closed session then.
     */
    private static final class Replay {

        final Set<Integer> touching = new TreeSet<>();
        final Map<Integer, Window> lateFor = new HashMap<>();
        private final OracleStream stream;
        /** Each key's sessions, by end. */
        private final Map<String, TreeMap<Long, Window>> sessions = new HashMap<>();

        Replay(OracleStream stream, Set<Integer> leftOut, Results run) {
            this.stream = stream;
            int keptOffset = 0;
            for (int i = 0; i < stream.inputs().size(); i++) {
                check(i);
                if (!leftOut.contains(i)) {
                    run.sessionUpdates().get(keptOffset++).forEach(this::apply);
                }
            }
        }

        private void check(int offset) {
            Input in = stream.inputs().get(offset);
            long watermark = stream.watermarkBefore(offset);
            long ts = in.timestamp();
            Window lastClosed = null;
            boolean touchesClosed = false;
            long mergedEnd = ts;
            for (Window s : sessions.getOrDefault(in.key(), new TreeMap<>()).values()) {
                boolean touches = s.start() - stream.gap() <= ts && ts <= s.end() + stream.gap();
                if (s.end() + stream.gap() + stream.grace() <= watermark) {
                    lastClosed = s; // by end: the last one wins
                    touchesClosed |= touches;
                } else if (touches) {
                    mergedEnd = Math.max(mergedEnd, s.end());
                }
            }
            if (!touchesClosed) {
                return;
            }
            touching.add(offset);
            boolean endsTooEarly = mergedEnd < Math.max(watermark, ts) - stream.gap() - stream.grace();
            if (!endsTooEarly) {
                if (!(lastClosed.start() - stream.gap() <= ts && ts <= lastClosed.end() + stream.gap())) {
                    throw new IllegalStateException("record #" + offset + " " + in + " touches a closed session"
                            + " that is not its key's last closed one, " + lastClosed + ", and its session does not"
                            + " end before the watermark " + watermark + " less gap and grace: " + stream);
                }
                lateFor.put(offset, lastClosed);
            }
        }

        private void apply(Emitted update) {
            TreeMap<Long, Window> ofKey = sessions.computeIfAbsent(update.key(), k -> new TreeMap<>());
            if (update.value() == null) {
                ofKey.remove(update.end(), update.window());
            } else {
                ofKey.put(update.end(), update.window());
            }
        }
    }
}
