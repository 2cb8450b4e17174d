package io.weir.internal.config;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One client's share of the instance's metrics scheduler: what is scheduled here runs on the shared
 * scheduler, and {@link #shutdownNow()} cancels exactly that and nothing of the other clients.
 *
 * <p>Why it exists: Micrometer's {@code KafkaClientMetrics} given a scheduler schedules its refresh
 * there and, the scheduler being the caller's, neither cancels it nor shuts it down on close
 * (Micrometer 1.17): on a shared scheduler, a closed client's refresh would run on forever. Without
 * a scheduler it starts a thread of its own per client.
 *
 * <p>Every task runs under {@code lock} and only while the schedule is open, so a task that
 * {@link #shutdownNow()} (under the same lock) overtakes never runs, and none still runs once it
 * returned: a closed client's meters cannot come back.
 */
final class BindingSchedule extends AbstractExecutorService implements ScheduledExecutorService {

    private final ScheduledExecutorService shared;
    private final Object lock;
    private final List<Future<?>> scheduled = new ArrayList<>();
    private boolean closed;

    BindingSchedule(ScheduledExecutorService shared, Object lock) {
        this.shared = shared;
        this.lock = lock;
    }

    private Runnable guarded(Runnable task) {
        return () -> {
            synchronized (lock) {
                if (!closed) {
                    task.run();
                }
            }
        };
    }

    private <F extends Future<?>> F keep(F future) {
        synchronized (lock) {
            if (closed) {
                future.cancel(false);
            } else {
                scheduled.removeIf(Future::isDone);
                scheduled.add(future);
            }
        }
        return future;
    }

    @Override
    public void execute(Runnable task) {
        keep(shared.schedule(guarded(task), 0, TimeUnit.MILLISECONDS));
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
        return keep(shared.schedule(guarded(task), delay, unit));
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> task, long delay, TimeUnit unit) {
        return keep(shared.schedule(
                () -> {
                    synchronized (lock) {
                        if (closed) {
                            return null;
                        }
                        return task.call();
                    }
                },
                delay,
                unit));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        return keep(shared.scheduleAtFixedRate(guarded(task), initialDelay, period, unit));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, long initialDelay, long delay, TimeUnit unit) {
        return keep(shared.scheduleWithFixedDelay(guarded(task), initialDelay, delay, unit));
    }

    @Override
    public void shutdown() {
        shutdownNow();
    }

    /** Cancels this schedule's tasks; the shared scheduler runs on. */
    @Override
    public List<Runnable> shutdownNow() {
        synchronized (lock) {
            closed = true;
            scheduled.forEach(f -> f.cancel(false));
            scheduled.clear();
        }
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        synchronized (lock) {
            return closed;
        }
    }

    @Override
    public boolean isTerminated() {
        return isShutdown();
    }

    /** Nothing to wait for once shut down: {@link #shutdownNow()} returns after any running task. */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isShutdown();
    }
}
