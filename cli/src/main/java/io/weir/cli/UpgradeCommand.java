package io.weir.cli;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir upgrade --mode savepoint}: what the Helm chart's pre-upgrade hook runs when
 * {@code upgrade.mode=savepoint}, and its pre-rollback hook with {@code --rollback}; see
 * {@link SavepointUpgrade} for the steps. Exits {@value Weir#OK} when the upgrade may go on (no
 * record, a safe change, or the savepoint restored into the new topology) and {@value Weir#FAILED}
 * with one line naming the savepoint and the way back otherwise, so Helm aborts the upgrade.
 */
@Command(
        name = "upgrade",
        description = "Carries an application's state into a new version that changes it"
                + " (Kubernetes): compares the topologies; on a state change takes a savepoint, stops the application,"
                + " scales its StatefulSet to 0 and restores the savepoint into the new topology; with --keep or"
                + " --max-age, prunes the savepoints after. Exit 0: go on with the upgrade; 1: abort it.")
final class UpgradeCommand implements Callable<Integer> {

    /** How the state reaches the new version. */
    enum Mode {
        savepoint,
        /** Only with --rollback: the revision rolled back to upgrades by rolling. */
        rolling
    }

    @Mixin
    AppOptions app;

    @Mixin
    TopologyOptions topology;

    @Mixin
    KubernetesOptions kubernetes;

    @Mixin
    RestoreOptions restore;

    @Mixin
    RetentionOptions retention;

    @Option(
            names = "--mode",
            paramLabel = "MODE",
            defaultValue = "savepoint",
            description = "savepoint: a state change goes through a savepoint (default: ${DEFAULT-VALUE}); rolling,"
                    + " with --rollback: the version rolled back to upgrades by rolling, so only a savepoint upgrade"
                    + " marked on the StatefulSet is undone")
    Mode mode;

    @Option(
            names = "--rollback",
            description = "the version given is the one rolled back to: on a state change,"
                    + " restore the newest savepoint with --savepoint-prefix that fits it (no new savepoint)")
    boolean rollback;

    @Option(
            names = "--statefulset",
            paramLabel = "NAME",
            required = true,
            description = "the StatefulSet running the application, scaled to 0 before the restore")
    String statefulSet;

    @Option(
            names = "--release",
            paramLabel = "NAME",
            description = "the Helm release, named in failure messages" + " (default: the StatefulSet's name)")
    String release;

    @Option(
            names = "--savepoint-prefix",
            paramLabel = "PREFIX",
            defaultValue = "pre-upgrade-",
            description = "the savepoint's id is PREFIX<UTC time>; --rollback restores the newest with it"
                    + " (default: ${DEFAULT-VALUE})")
    String savepointPrefix;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            defaultValue = "120",
            description = "how long the savepoint may take (default: ${DEFAULT-VALUE})")
    int savepointTimeoutSeconds;

    @Option(
            names = "--stop-timeout",
            paramLabel = "SECONDS",
            defaultValue = "300",
            description = "how long the instances may take to leave the consumer group after the scale to 0"
                    + " (default: ${DEFAULT-VALUE})")
    int stopTimeoutSeconds;

    @Override
    public Integer call() {
        if (savepointTimeoutSeconds <= 0 || stopTimeoutSeconds <= 0) {
            throw app.usage("--timeout and --stop-timeout must be positive");
        }
        if (mode == Mode.rolling && !rollback) {
            throw app.usage("--mode rolling goes with --rollback: a rolling upgrade needs no hook");
        }
        SavepointRetention limits;
        try {
            limits = retention.given() ? retention.retention() : null;
        } catch (IllegalArgumentException e) {
            throw app.usage(e.getMessage());
        }
        if (!savepointPrefix.matches("[A-Za-z0-9._-]{1,60}")) {
            throw app.usage("--savepoint-prefix must be 1 to 60 letters, digits, '.', '_' or '-', not '"
                    + savepointPrefix + "'");
        }
        // The options and the topology first: a bad call fails before the cluster or Kubernetes is asked.
        SavepointUpgrade.Plan plan = new SavepointUpgrade.Plan(
                app.id,
                topology.description(app.id),
                topology.model(app.id),
                savepointPrefix,
                restore.options(),
                Duration.ofSeconds(savepointTimeoutSeconds),
                Duration.ofSeconds(stopTimeoutSeconds),
                release != null ? release : statefulSet);
        SavepointUpgrade steps = new SavepointUpgrade(app, kubernetes.statefulSet(statefulSet));
        if (rollback) {
            steps.rollback(
                    plan,
                    mode == Mode.rolling
                            ? SavepointUpgrade.RollbackTo.ROLLING_MODE
                            : SavepointUpgrade.RollbackTo.SAVEPOINT_MODE);
            return Weir.OK;
        }
        SavepointUpgrade.Outcome outcome = steps.upgrade(plan);
        if (limits != null
                && (outcome == SavepointUpgrade.Outcome.RESTORED || outcome == SavepointUpgrade.Outcome.RESUMED)) {
            prune(plan, limits);
        }
        return Weir.OK;
    }

    /** The history's limits, after the upgrade succeeded: a failure to prune does not fail the upgrade. */
    private void prune(SavepointUpgrade.Plan plan, SavepointRetention limits) {
        try {
            Optional<String> upgrading = kubernetes
                    .statefulSet(statefulSet)
                    .annotation(UpgradeMark.ANNOTATION)
                    .flatMap(v -> UpgradeMark.decode(v, app.out()::println))
                    .map(UpgradeMark::savepoint);
            SavepointPrune.prune(app, limits, retention, upgrading, false);
        } catch (RuntimeException e) {
            app.out()
                    .println("pruning the savepoints of " + plan.app() + " failed (" + e.getMessage() + "); the upgrade"
                            + " goes on, the next prune retries");
        }
    }
}
