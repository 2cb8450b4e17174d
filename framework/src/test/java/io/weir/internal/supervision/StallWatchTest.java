package io.weir.internal.supervision;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.weir.internal.thread.ThreadHealth;
import io.weir.processor.TaskId;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class StallWatchTest {

    private static final long SECOND = 1_000_000_000L;
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(StallWatch.class);
    private final AtomicInteger diagnoses = new AtomicInteger();
    private String diagnosis = "output topic 'alerts' does not exist (deleted?): records for it cannot be written";

    @BeforeEach
    void captureLogs() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void releaseLogs() {
        logger.detachAppender(logs);
    }

    private StallWatch watch() {
        // The diagnosis runs on the calling thread, so each check sees its result at once.
        return new StallWatch(
                "app",
                5 * SECOND,
                () -> {
                    diagnoses.incrementAndGet();
                    return diagnosis;
                },
                Runnable::run);
    }

    private static ThreadHealth thread(String name, TaskId... tasks) {
        ThreadHealth h = new ThreadHealth(name);
        h.tasks(Set.of(tasks));
        h.phase(ThreadHealth.Phase.RUNNING);
        return h;
    }

    private List<ILoggingEvent> at(Level level) {
        return logs.list.stream().filter(e -> e.getLevel() == level).toList();
    }

    @Test
    void aThreadThatKeepsTurningIsNotStalled() {
        StallWatch watch = watch();
        ThreadHealth t = thread("t0", new TaskId(0, 1));
        t.loopTurned();
        watch.check(List.of(t), System.nanoTime() + SECOND);
        assertThat(watch.current()).isNull();
        assertThat(diagnoses).hasValue(0);
        assertThat(logs.list).isEmpty();
    }

    @Test
    void aStuckThreadIsReportedOnceWithTheDiagnosedCauseAndItsTasksThenAgainAfterThirtySeconds() {
        StallWatch watch = watch();
        ThreadHealth t = thread("t0", new TaskId(0, 1), new TaskId(0, 0));
        long start = t.lastLoopNanos();
        for (long s = 6; s < 30; s++) {
            watch.check(List.of(t), start + s * SECOND);
        }
        assertThat(watch.current().cause()).isEqualTo(diagnosis);
        assertThat(watch.current().tasks()).containsExactly("0_0", "0_1");
        assertThat(at(Level.WARN))
                .singleElement()
                .satisfies(e -> assertThat(e.getFormattedMessage())
                        .contains("app cannot make progress", diagnosis, "0_0, 0_1", "repeated every 30 s"));

        watch.check(List.of(t), start + 37 * SECOND);
        assertThat(at(Level.WARN)).hasSize(2);
        assertThat(diagnoses.get())
                .as("diagnosed at the start and again for the repeat")
                .isEqualTo(2);
    }

    @Test
    void recoveryIsLoggedOnceAndClearsTheStall() {
        StallWatch watch = watch();
        ThreadHealth t = thread("t0", new TaskId(0, 0));
        long start = t.lastLoopNanos();
        watch.check(List.of(t), start + 6 * SECOND);
        t.loopTurned();
        watch.check(List.of(t), t.lastLoopNanos() + SECOND);
        watch.check(List.of(t), t.lastLoopNanos() + 2 * SECOND);
        assertThat(watch.current()).isNull();
        assertThat(at(Level.INFO))
                .singleElement()
                .satisfies(
                        e -> assertThat(e.getFormattedMessage()).contains("app is making progress again", diagnosis));
    }

    @Test
    void withoutAFindingInTheClusterTheSymptomIsTheCause() {
        diagnosis = null;
        StallWatch watch = watch();
        ThreadHealth t = thread("t0", new TaskId(0, 0));
        t.commitFailed("commit failed: TimeoutException");
        long now = t.commitFailingSinceNanos() + 6 * SECOND;
        t.loopTurned();
        watch.check(List.of(t), now);
        assertThat(watch.current().cause()).contains("commits of t0 keep failing: commit failed: TimeoutException");
        assertThat(at(Level.WARN)).hasSize(1);
    }

    @Test
    void anAsyncStepWhoseCallsDoNotFinishIsNamedAsTheCause() {
        diagnosis = null;
        StallWatch watch = watch();
        ThreadHealth t = thread("t0", new TaskId(0, 3));
        long since = System.nanoTime();
        t.asyncWait(new ThreadHealth.AsyncWait("price-lookup", new TaskId(0, 3), 1000, true, since));
        t.loopTurned(); // the thread turns: only the step waits
        watch.check(List.of(t), since + SECOND);
        assertThat(watch.current()).as("a short wait is no stall").isNull();
        watch.check(List.of(t), since + 6 * SECOND);
        assertThat(watch.current().cause())
                .contains("async step 'price-lookup' of task 0_3 has had 1000 calls in flight")
                .contains("the task takes no records")
                .contains("the service it calls is slow or not answering");
        t.asyncWait(null);
        t.loopTurned();
        watch.check(List.of(t), System.nanoTime() + SECOND);
        assertThat(watch.current()).isNull();
    }

    @Test
    void aCommitThatSucceedsAgainEndsTheCommitSymptom() {
        StallWatch watch = watch();
        ThreadHealth t = thread("t0", new TaskId(0, 0));
        t.commitFailed("aborted");
        t.commitSucceeded();
        t.loopTurned();
        watch.check(List.of(t), System.nanoTime() + SECOND);
        assertThat(watch.current()).isNull();
    }

    @Test
    void aShortBlipIsNeitherAStallNorLogged() {
        StallWatch watch = watch();
        ThreadHealth t = thread("t0", new TaskId(0, 0));
        watch.check(List.of(t), t.lastLoopNanos() + 4 * SECOND);
        assertThat(watch.current()).isNull();
        assertThat(logs.list).isEmpty();
    }

    @Test
    void stoppedThreadsAreIgnored() {
        StallWatch watch = watch();
        ThreadHealth t = thread("t0", new TaskId(0, 0));
        t.phase(ThreadHealth.Phase.STOPPED);
        watch.check(List.of(t), t.lastLoopNanos() + 60 * SECOND);
        assertThat(watch.current()).isNull();
    }
}
