package io.weir;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a bounded run ({@link WeirApp#runBounded()}) did, once it is committed and closed. Counts
 * are of committed work only: a record processed twice because a transaction was aborted and
 * replayed counts once.
 *
 * @param applicationId      the application
 * @param inputRecords       records read from the input topics and committed (dead-lettered ones included)
 * @param repartitionRecords records read from repartition topics and committed
 * @param sentAtEnd          records sent when the input ended and event time jumped to the end: the
 *                           results of the windows and event-time timers that fired then
 * @param duration           from start to the last task's final commit
 * @param endOffsets         per input and repartition topic, the end offset of each partition
 *                           (read_committed), in partition order
 * @param until              {@code bounded.until}, if the run was limited in time
 */
public record BoundedRunSummary(
        String applicationId,
        long inputRecords,
        long repartitionRecords,
        long sentAtEnd,
        Duration duration,
        Map<String, List<Long>> endOffsets,
        Optional<Instant> until) {

    /** The one line the run logs at INFO. */
    @Override
    public String toString() {
        double seconds = duration.toNanos() / 1e9;
        return String.format(
                java.util.Locale.ROOT,
                "bounded run of %s complete: %d input records (%.0f/s), %d"
                        + " repartitioned, %d sent by windows and timers at the end, %.3f s%s; end offsets %s",
                applicationId,
                inputRecords,
                seconds > 0 ? inputRecords / seconds : 0.0,
                repartitionRecords,
                sentAtEnd,
                seconds,
                until.map(u -> ", until " + u).orElse(""),
                endOffsets);
    }
}
