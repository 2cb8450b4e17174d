package io.weir.common.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WorkerTest {

    private static final Duration LONG = Duration.ofSeconds(30);

    @Test
    void runsTheStepUntilStoppedAndStopsPromptly() throws Exception {
        AtomicInteger passes = new AtomicInteger();
        CountDownLatch blocking = new CountDownLatch(1);
        Worker worker = Worker.loop("test-loop", self -> {
            passes.incrementAndGet();
            blocking.countDown();
            Thread.sleep(LONG.toMillis()); // a step that blocks: the stop's interrupt ends it
        });
        assertThat(worker.pause(Duration.ZERO)).isTrue(); // not stopped: a pause runs its course
        assertThat(blocking.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        worker.close();
        assertThat(worker.alive()).isFalse();
        assertThat(passes).hasValue(1);

        CountDownLatch ran = new CountDownLatch(3);
        Worker busy = Worker.loop("test-busy", self -> ran.countDown());
        assertThat(ran.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(busy.stopAndJoin(LONG)).isTrue();
        assertThat(busy.stopping()).isTrue();
        assertThat(busy.alive()).isFalse();
    }

    @Test
    void pauseReturnsFalseOnStopWithoutAnInterrupt() throws Exception {
        CompletableFuture<Boolean> paused = new CompletableFuture<>();
        CountDownLatch pausing = new CountDownLatch(1);
        Worker worker = Worker.named("test-pause").interruptOnStop(false).loop(self -> {
            pausing.countDown();
            paused.complete(self.pause(LONG));
        });
        assertThat(pausing.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(worker.stopAndJoin(LONG)).isTrue();
        assertThat(paused.get()).isFalse();
    }

    @Test
    void everyPausesBetweenPassesUntilStopped() throws Exception {
        AtomicInteger passes = new AtomicInteger();
        CountDownLatch twice = new CountDownLatch(2);
        Worker worker = Worker.every("test-every", Duration.ofMillis(5), self -> {
            passes.incrementAndGet();
            twice.countDown();
        });
        assertThat(twice.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(worker.stopAndJoin(LONG)).isTrue();
        int after = passes.get();
        assertThat(worker.alive()).isFalse();
        assertThat(passes).hasValue(after);
    }

    @Test
    void aThrowingStepEndsTheWorkerAndIsReportedOnce() throws Exception {
        IllegalStateException broken = new IllegalStateException("broken");
        CompletableFuture<Throwable> reported = new CompletableFuture<>();
        AtomicInteger reports = new AtomicInteger();
        AtomicBoolean exited = new AtomicBoolean();
        Worker worker = Worker.named("test-failing")
                .onFailure(e -> {
                    reports.incrementAndGet();
                    reported.complete(e);
                })
                .onExit(() -> exited.set(true))
                .loop(self -> {
                    throw broken;
                });
        assertThat(reported.get(LONG.toSeconds(), TimeUnit.SECONDS)).isSameAs(broken);
        assertThat(worker.stopAndJoin(LONG)).isTrue();
        assertThat(reports).hasValue(1);
        assertThat(exited).isTrue();
    }

    @Test
    void whatAStepThrowsAfterTheStopIsNoFailure() throws Exception {
        AtomicInteger reports = new AtomicInteger();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch woken = new CountDownLatch(1);
        Worker worker = Worker.named("test-woken")
                .interruptOnStop(false)
                .wakeUp(woken::countDown)
                .onFailure(e -> reports.incrementAndGet())
                .loop(self -> {
                    running.countDown();
                    woken.await(); // as a consumer's poll until its wakeup()
                    throw new IllegalStateException("woken up");
                });
        assertThat(running.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(worker.stopAndJoin(LONG)).isTrue();
        assertThat(reports).hasValue(0);
    }

    @Test
    void stopAndJoinReturnsFalseForAStepThatIgnoresTheStop() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        Worker worker = Worker.loop("test-stubborn", self -> {
            running.countDown();
            while (release.getCount() > 0) {
                Thread.interrupted(); // swallows the stop's interrupt, as a careless step would
                Thread.onSpinWait();
            }
        });
        assertThat(running.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(worker.stopAndJoin(Duration.ofMillis(50))).isFalse();
        assertThat(worker.alive()).isTrue();
        release.countDown();
        assertThat(worker.stopAndJoin(LONG)).isTrue();
    }

    @Test
    void theThreadHasTheWorkersNameAndIsADaemonByDefault() throws Exception {
        AtomicReference<Thread> seen = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        Worker worker = Worker.loop("app-1-liveness", self -> {
            seen.set(Thread.currentThread());
            ran.countDown();
            self.pause(LONG);
        });
        assertThat(ran.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(seen.get().getName()).isEqualTo("app-1-liveness");
        assertThat(seen.get().isDaemon()).isTrue();
        assertThat(worker.name()).isEqualTo("app-1-liveness");
        worker.close();

        CountDownLatch userRan = new CountDownLatch(1);
        Worker user = Worker.named("app-1-user").daemon(false).loop(self -> {
            seen.set(Thread.currentThread());
            userRan.countDown();
            self.pause(LONG);
        });
        assertThat(userRan.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        user.close();
        assertThat(seen.get().isDaemon()).isFalse();
    }
}
