package io.weir;

import io.weir.common.internal.Deadline;
import io.weir.config.WeirConfig;
import io.weir.errors.InstanceStateException;
import io.weir.errors.ServiceUnavailableException;
import io.weir.internal.cluster.access.AuthorizationFailures;
import io.weir.internal.kubernetes.ScaleInCheck;
import io.weir.internal.supervision.InstanceMeters;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a {@link WeirApp} stops, whatever asked: {@link WeirApp#close} (graceful, leaving the group
 * or not), SIGTERM or SIGINT (leaving if {@code shutdown.leave.group} or the scale-in check says
 * so), {@code POST /admin/leave}, a savepoint with stop, or a stream thread that failed. One flag
 * makes a second stop wait for the first.
 *
 * <p>Threading: any thread. The instance is released under {@code lock} (the application, whose
 * {@code start()} holds it), so a release never runs while the instance is being started.
 */
final class Shutdown {

    /** The instance's start and stop lines come from the application's logger, as operators filter them. */
    private static final Logger log = LoggerFactory.getLogger(WeirApp.class);

    private final WeirConfig config;
    private final Lifecycle lifecycle;
    private final InstanceMeters meters;
    /** The started parts, or null before the application's start wired them. */
    private final Supplier<RunningInstance> instance;

    private final Object lock;
    private final AtomicBoolean closing = new AtomicBoolean();
    /** With {@code shutdown.leave.group=kubernetes_scale_in}, from start: decides at SIGTERM; else null. */
    private volatile ScaleInCheck scaleIn;

    Shutdown(
            WeirConfig config,
            Lifecycle lifecycle,
            InstanceMeters meters,
            Supplier<RunningInstance> instance,
            Object lock) {
        this.config = config;
        this.lifecycle = lifecycle;
        this.meters = meters;
        this.instance = instance;
        this.lock = lock;
    }

    /** The scale-in check that decides, at SIGTERM, whether to leave the group. */
    void decideAtSignalWith(ScaleInCheck check) {
        scaleIn = check;
    }

    /** True once a stop is under way (or done). */
    boolean underWay() {
        return closing.get();
    }

    /** See {@link WeirApp#close(Duration, boolean)}. */
    void close(Duration timeout, boolean leaveGroup) {
        if (lifecycle.get() == WeirApp.State.CREATED
                && lifecycle.transition(WeirApp.State.CREATED, WeirApp.State.STOPPED)) {
            lifecycle.stopped();
            return;
        }
        if (!closing.compareAndSet(false, true)) {
            lifecycle.awaitStoppedQuietly(timeout);
            return;
        }
        WeirApp.State before = lifecycle.get();
        if (before != WeirApp.State.FAILED && before != WeirApp.State.STOPPED) {
            lifecycle.transition(before, WeirApp.State.STOPPING);
        }
        if (before != WeirApp.State.FAILED) {
            log.info(
                    "{} stopping{}",
                    config.applicationId(),
                    leaveGroup
                            ? " and leaving the consumer group: its tasks move to the other instances now"
                            : "; keeping its group membership for a restart with the same instance.id");
        }
        RunningInstance i = instance.get();
        if (i != null) {
            i.stopThreads(leaveGroup, Deadline.after(timeout));
            synchronized (lock) {
                i.release(true);
            }
        }
        meters.close();
        lifecycle.transition(WeirApp.State.STOPPING, WeirApp.State.STOPPED);
        log.info("{} stopped", config.applicationId());
        lifecycle.stopped();
    }

    /** Scale-in from outside ({@code POST /admin/leave}): close and leave the group, on a thread of its own. */
    boolean leaveGroupAndStop() {
        WeirApp.State s = lifecycle.get();
        if (closing.get() || s == WeirApp.State.CREATED || s == WeirApp.State.FAILED) {
            return false;
        }
        closeInBackground("-leave");
        return true;
    }

    /** A savepoint requested with stop was written: close and leave the group, on a thread of its own. */
    void afterSavepoint() {
        if (!closing.get()) {
            closeInBackground("-savepoint-stop");
        }
    }

    /**
     * Runs {@code body} with a JVM shutdown hook that stops the application on SIGTERM or SIGINT:
     * leaving the group if {@code shutdown.leave.group} says so, or (with
     * {@code kubernetes_scale_in}) if the StatefulSet no longer wants this pod; the API call is
     * counted in {@code shutdown.timeout.ms}. An instance already stopping (after
     * {@code POST /admin/leave}, say) goes on as it chose.
     */
    void onSignalWhile(Waiting body) throws InterruptedException {
        Thread hook = new Thread(this::closeOnSignal, config.applicationId() + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            body.run();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is already running the hook
            }
        }
    }

    /** What {@link #onSignalWhile} runs: a wait that may be interrupted. */
    interface Waiting {
        void run() throws InterruptedException;
    }

    private void closeOnSignal() {
        Deadline deadline = Deadline.after(config.shutdownTimeout());
        boolean leave = config.shutdownLeaveGroup();
        ScaleInCheck check = scaleIn;
        if (check != null && !closing.get()) {
            leave = check.atShutdown().leave();
        }
        close(deadline.remaining(), leave);
    }

    private void closeInBackground(String suffix) {
        new Thread(() -> close(config.shutdownTimeout(), true), config.applicationId() + suffix).start();
    }

    /**
     * A stream thread (or a bounded run) failed: the application fails and the instance stops on a
     * thread of its own; the HTTP endpoints stay, so probes see the failure until it is closed.
     */
    void threadFailed(Throwable failure) {
        // A missing ACL the start-up check could not see (Write beyond Describe): say which.
        Throwable e = AuthorizationFailures.explained(failure, config);
        if (!lifecycle.fail(e)) {
            return;
        }
        if (e instanceof ServiceUnavailableException) {
            // Not a bug, so no stack trace: the message names the record, the service's address and what to check.
            log.error("{}: stopping the instance: {}", config.applicationId(), e.getMessage());
        } else {
            log.error("{}: a stream thread failed; stopping the instance", config.applicationId(), e);
        }
        Thread stopper = new Thread(
                () -> {
                    RunningInstance i = instance.get();
                    if (i != null) {
                        i.stopAfterFailure(config.shutdownTimeout());
                        synchronized (lock) {
                            // The HTTP endpoints stay: probes must see the failure (503) until the instance is closed.
                            i.release(false);
                        }
                    }
                    lifecycle.stopped();
                },
                config.applicationId() + "-failure-stop");
        stopper.start();
    }

    /** A bounded run found a problem (another member joined the group, say): the application fails. */
    void boundedRunFailed(String problem) {
        threadFailed(new InstanceStateException(problem));
    }
}
