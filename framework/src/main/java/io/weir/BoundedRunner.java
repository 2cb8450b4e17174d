package io.weir;

import io.weir.config.WeirConfig;
import io.weir.errors.InstanceFailedException;
import io.weir.errors.InstanceStateException;
import io.weir.internal.bounded.BoundedRun;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a bounded run ({@link WeirApp#runBounded()}): waits until every input reached the end
 * the run took at start, closes the application leaving the group, and sums the run up; or says
 * why it did not finish.
 */
final class BoundedRunner {

    /** The summary line comes from the application's logger, as operators filter it. */
    private static final Logger log = LoggerFactory.getLogger(WeirApp.class);

    private BoundedRunner() {}

    /** Called on the thread that runs the application, once it started. */
    static BoundedRunSummary awaitEnd(WeirConfig config, Lifecycle lifecycle, Shutdown shutdown, RunningInstance i)
            throws InterruptedException {
        BoundedRun run = i.bounded().orElseThrow();
        run.awaitEnd(
                i.admin(),
                config.applicationId(),
                i.instanceId(),
                () -> !lifecycle.isStopped() && !shutdown.underWay(),
                shutdown::boundedRunFailed);
        Throwable f = lifecycle.failure().orElse(null);
        if (f == null && !run.isComplete()) {
            lifecycle.awaitStoppedQuietly(config.shutdownTimeout());
            throw new InstanceStateException("the bounded run of " + config.applicationId() + " was closed before"
                    + " the end of its input; what it committed stays, and a new run continues from there");
        }
        if (f == null) {
            shutdown.close(config.shutdownTimeout(), true);
            f = lifecycle.failure().orElse(null);
        }
        if (f != null) {
            lifecycle.awaitStoppedQuietly(config.shutdownTimeout());
            throw new InstanceFailedException("the bounded run of " + config.applicationId() + " failed: " + f, f);
        }
        BoundedRunSummary summary = new BoundedRunSummary(
                config.applicationId(),
                run.inputRecords(),
                run.repartitionRecords(),
                run.sentAtEnd(),
                run.duration(),
                run.endOffsets(),
                config.boundedUntil());
        log.info("{}", summary);
        return summary;
    }
}
