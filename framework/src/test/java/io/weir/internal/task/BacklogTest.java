package io.weir.internal.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.time.Watermarks;
import org.junit.jupiter.api.Test;

class BacklogTest {

    @Test
    void theInstancesBacklogIsWhatEachThreadLastReportedTogether() {
        Backlog backlog = new Backlog();
        assertThat(backlog.total()).isZero();

        backlog.report("thread-0", 40_000);
        backlog.report("thread-1", 30_000);
        assertThat(backlog.total()).isEqualTo(70_000);

        backlog.report("thread-0", 5);
        assertThat(backlog.total()).isEqualTo(30_005);

        backlog.remove("thread-1");
        backlog.report("thread-2", -1); // a lag not known yet counts as none
        assertThat(backlog.total()).isEqualTo(5);
    }

    @Test
    void aTaskIsBehindWhenTheInstanceIsWhateverItsOwnInput() {
        Backlog backlog = new Backlog();
        TaskContext windowTask =
                new TaskContext(new io.weir.processor.TaskId(1, 0), "app", () -> 0L, new Watermarks(0, 30_000), null);
        windowTask.maxEarlyLag(50_000);
        windowTask.inputLag(backlog::total);

        backlog.report("thread-0", 50_000);
        assertThat(windowTask.behind()).isFalse();
        backlog.report("thread-0", 50_001); // the task feeding it through a repartition topic is behind
        assertThat(windowTask.behind()).isTrue();

        windowTask.maxEarlyLag(0);
        assertThat(windowTask.behind()).as("0: never behind").isFalse();
    }
}
