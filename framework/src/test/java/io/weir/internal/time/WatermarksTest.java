package io.weir.internal.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import org.junit.jupiter.api.Test;

/** A task reading a topic of its own and a repartition topic (a merge after a regroup). */
class WatermarksTest {

    private static final long OUT_OF_ORDERNESS = 100;
    private static final long IDLE_MS = 1_000;

    private final Watermarks watermarks = new Watermarks(OUT_OF_ORDERNESS, IDLE_MS);
    private final PartitionTime own = partition("clicks", false);
    private final PartitionTime regrouped = partition("app-x-repartition", true);

    WatermarksTest() {
        watermarks.setPartitions(new PartitionTime[] {own, regrouped});
    }

    /** A partition of {@code topic} with event time, as a task's {@code PartitionTime} holds it. */
    private static PartitionTime partition(String topic, boolean repartition) {
        return new PartitionTime(true, repartition, new ArrayDeque<>());
    }

    @Test
    void aRepartitionPartitionCountsWithItsWritersTimeWhichAlreadyAllowsForDisorder() {
        watermarks.observe(own, 10_000);
        assertThat(watermarks.advance(0))
                .as("the repartition partition has no time yet")
                .isFalse();

        regrouped.upstream.observe(new WatermarkMarker(0, 0, 1, 4_000, false));
        regrouped.maxTimestamp = 9_000; // a record's time: not what counts for this partition
        assertThat(watermarks.advance(0)).isTrue();
        assertThat(watermarks.current()).isEqualTo(4_000);

        regrouped.upstream.observe(new WatermarkMarker(0, 0, 1, 12_000, false));
        watermarks.advance(0);
        assertThat(watermarks.current())
                .as("the own partition, minus out-of-orderness")
                .isEqualTo(9_900);
    }

    @Test
    void idleWritersReleaseThePartitionWhateverItsWallClock() {
        watermarks.observe(own, 10_000);
        regrouped.upstream.observe(new WatermarkMarker(0, 0, 1, 2_000, true));
        assertThat(watermarks.advance(0)).isTrue();
        assertThat(watermarks.current()).isEqualTo(9_900);
        assertThat(watermarks.idle(0)).isFalse();
        assertThat(watermarks.idle(IDLE_MS))
                .as("own idle by the clock, regrouped by its writers")
                .isTrue();
    }

    @Test
    void theRepartitionPartitionsTimeIsCommittedAndResumed() {
        watermarks.observe(own, 10_000);
        regrouped.upstream.observe(new WatermarkMarker(0, 0, 1, 5_000, false));
        watermarks.advance(0);
        watermarks.committed();
        String metadata = watermarks.metadata(regrouped);
        assertThat(metadata).isEqualTo("weir1:5000:" + Long.MIN_VALUE + ":5000");

        Watermarks resumed = new Watermarks(OUT_OF_ORDERNESS, IDLE_MS);
        PartitionTime own2 = partition("clicks", false);
        PartitionTime regrouped2 = partition("app-x-repartition", true);
        resumed.setPartitions(new PartitionTime[] {own2, regrouped2});
        resumed.resume(own2, watermarks.metadata(own));
        resumed.resume(regrouped2, metadata);
        assertThat(resumed.current()).isEqualTo(5_000);
        assertThat(regrouped2.upstream.watermark()).isEqualTo(5_000);
        assertThat(regrouped2.upstream.awaitingWriters()).isTrue();

        // Metadata of a version before repartition partitions had their writers' time: the task's
        // watermark resumes, the partition's time starts anew.
        PartitionTime older = partition("app-x-repartition", true);
        Watermarks fromOlder = new Watermarks(OUT_OF_ORDERNESS, IDLE_MS);
        fromOlder.setPartitions(new PartitionTime[] {older});
        fromOlder.resume(older, "weir1:7000:7100");
        assertThat(fromOlder.current()).isEqualTo(7_000);
        assertThat(older.upstream.watermark()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void anAbortTakesThePartitionsTimeBack() {
        regrouped.upstream.observe(new WatermarkMarker(0, 0, 1, 3_000, false));
        watermarks.observe(own, 10_000);
        watermarks.advance(0);
        watermarks.committed();
        regrouped.upstream.observe(new WatermarkMarker(0, 0, 1, 8_000, false));
        watermarks.advance(0);
        assertThat(watermarks.current()).isEqualTo(8_000);
        watermarks.aborted();
        assertThat(watermarks.current()).isEqualTo(3_000);
        assertThat(regrouped.upstream.watermark()).isEqualTo(3_000);
    }
}
