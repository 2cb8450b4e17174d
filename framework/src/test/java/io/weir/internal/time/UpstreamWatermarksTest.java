package io.weir.internal.time;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UpstreamWatermarksTest {

    private final UpstreamWatermarks upstream = new UpstreamWatermarks();

    @Test
    void holdsUntilEveryWriterWasHeardThenTakesTheSlowest() {
        assertThat(upstream.awaitingWriters()).isTrue();
        upstream.observe(new WatermarkMarker(0, 0, 3, 9_000, false));
        upstream.observe(new WatermarkMarker(0, 2, 3, 5_000, false));
        assertThat(upstream.watermark()).as("task 1 not heard yet").isEqualTo(Long.MIN_VALUE);
        assertThat(upstream.awaitingWriters()).isTrue();
        upstream.observe(new WatermarkMarker(0, 1, 3, 1_000, false));
        assertThat(upstream.awaitingWriters()).isFalse();
        assertThat(upstream.watermark()).isEqualTo(1_000);
        upstream.observe(new WatermarkMarker(0, 1, 3, 7_000, false));
        assertThat(upstream.watermark()).isEqualTo(5_000);
        assertThat(upstream.idle()).isFalse();
    }

    @Test
    void idleWritersHoldNothingBackAndAllIdleMakesThePartitionIdle() {
        upstream.observe(new WatermarkMarker(0, 0, 2, 8_000, false));
        upstream.observe(new WatermarkMarker(0, 1, 2, Long.MIN_VALUE, true));
        assertThat(upstream.watermark()).isEqualTo(8_000);
        assertThat(upstream.idle()).isFalse();
        upstream.observe(new WatermarkMarker(0, 0, 2, 8_000, true));
        assertThat(upstream.idle()).isTrue();
        assertThat(upstream.watermark()).isEqualTo(8_000);
        // A writer that wakes up behind cannot take the partition's time back.
        upstream.observe(new WatermarkMarker(0, 1, 2, 2_000, false));
        assertThat(upstream.idle()).isFalse();
        assertThat(upstream.watermark()).isEqualTo(8_000);
    }

    @Test
    void aWriterNeverGoesBackAndMoreWritersAreWaitedFor() {
        upstream.observe(new WatermarkMarker(0, 0, 1, 4_000, false));
        upstream.observe(new WatermarkMarker(0, 0, 1, 3_000, false)); // a duplicate from an at-least-once replay
        assertThat(upstream.watermark()).isEqualTo(4_000);
        upstream.observe(new WatermarkMarker(0, 1, 2, 6_000, false)); // the input topic grew
        upstream.observe(new WatermarkMarker(0, 0, 1, 5_000, false));
        assertThat(upstream.watermark()).isEqualTo(5_000);
    }

    @Test
    void anAbortGoesBackToTheCommittedState() {
        upstream.observe(new WatermarkMarker(0, 0, 2, 1_000, false));
        upstream.observe(new WatermarkMarker(0, 1, 2, 2_000, false));
        upstream.committed();
        upstream.observe(new WatermarkMarker(0, 0, 2, 5_000, true));
        assertThat(upstream.watermark()).isEqualTo(2_000);
        upstream.aborted();
        assertThat(upstream.watermark()).isEqualTo(1_000);
        assertThat(upstream.idle()).isFalse();
        upstream.observe(new WatermarkMarker(0, 0, 2, 3_000, false)); // the replay
        assertThat(upstream.watermark()).isEqualTo(2_000);
    }

    @Test
    void aResumedPartitionKeepsItsCommittedTimeUntilEveryWriterIsHeardAgain() {
        upstream.resume(4_000);
        assertThat(upstream.watermark()).isEqualTo(4_000);
        upstream.observe(new WatermarkMarker(0, 0, 2, 9_000, false));
        assertThat(upstream.watermark()).isEqualTo(4_000);
        upstream.observe(new WatermarkMarker(0, 1, 2, 6_000, false));
        assertThat(upstream.watermark()).isEqualTo(6_000);
        upstream.aborted();
        assertThat(upstream.watermark()).as("the resumed time is committed").isEqualTo(4_000);
    }
}
