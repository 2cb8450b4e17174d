package io.weir.internal.savepoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.processor.TaskId;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SavepointCutTest {

    /** Sub-topology 0 reads the input and writes a repartition topic that 1 reads; 2 reads 1's. */
    private static SavepointCut chain() {
        return new SavepointCut(Map.of(0, Set.of(), 1, Set.of(0), 2, Set.of(1)), Map.of(0, 2, 1, 3, 2, 1));
    }

    @Test
    void tasksReadingOnlyInputsPauseAtOnceAndDownstreamWaitsForEveryWriter() {
        SavepointCut cut = chain();
        assertThat(cut.taskCount()).isEqualTo(6);
        assertThat(cut.drains(new TaskId(0, 1))).isFalse();
        assertThat(cut.drains(new TaskId(1, 0))).isTrue();
        assertThat(cut.upstreamPaused(new TaskId(1, 0))).isFalse();
        cut.paused(new TaskId(0, 0));
        assertThat(cut.upstreamPaused(new TaskId(1, 0)))
                .as("one writer of two paused")
                .isFalse();
        cut.paused(new TaskId(0, 1));
        assertThat(cut.upstreamPaused(new TaskId(1, 2))).isTrue();
        assertThat(cut.upstreamPaused(new TaskId(2, 0)))
                .as("its writers are sub-topology 1's")
                .isFalse();
        cut.paused(new TaskId(1, 0));
        cut.paused(new TaskId(1, 1));
        cut.paused(new TaskId(1, 2));
        assertThat(cut.upstreamPaused(new TaskId(2, 0))).isTrue();
        assertThat(cut.complete()).isFalse();
        cut.paused(new TaskId(2, 0));
        assertThat(cut.complete()).isTrue();
    }

    @Test
    void aPauseHeardTwiceCountsOnce() {
        SavepointCut cut = chain();
        cut.paused(new TaskId(0, 0));
        cut.paused(new TaskId(0, 0));
        assertThat(cut.pausedCount()).isEqualTo(1);
    }
}
