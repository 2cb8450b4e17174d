package io.weir.cli;

import io.weir.common.internal.Poll;
import io.weir.config.WeirConfig;
import io.weir.internal.savepoint.Manifest;
import io.weir.internal.savepoint.SavepointCatalog;
import io.weir.internal.savepoint.SavepointCompatibility;
import io.weir.internal.savepoint.SavepointRestore;
import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyDiff;
import io.weir.internal.topology.TopologyModel;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;

/**
 * The steps of {@code weir upgrade --mode savepoint} (Helm's pre-upgrade hook) and of
 * {@code weir upgrade --rollback} (its pre-rollback hook), in order, each a method named for what
 * it does. The upgrade:
 * <ol>
 *   <li>compares the recorded topology with the new one ({@link TopologyDiff}); no record, or a
 *       change safe for a rolling upgrade: done, the pods roll as usual;</li>
 *   <li>refuses, before anything is touched, a change a savepoint cannot carry (a store whose kind
 *       or format changed) or one that drops state without {@code --allow-dropped-state};</li>
 *   <li>takes a savepoint and stops every instance after its cut ({@code weir stop --savepoint});</li>
 *   <li>scales the StatefulSet to 0, so Kubernetes does not restart the stopped instances, and
 *       waits until the consumer group has no member left;</li>
 *   <li>restores the savepoint into the new topology ({@link SavepointRestore}): Helm then applies
 *       the new StatefulSet, whose replicas start from it.</li>
 * </ol>
 * A rollback does the same without taking a savepoint: it restores the newest pre-upgrade
 * savepoint that fits the topology rolled back to, also when no topology is recorded while the
 * StatefulSet is at 0 (an upgrade whose restore failed half-way). Every failure is a {@link CommandFailedException}
 * of one line that says what state the application is in, which savepoint holds its state and how
 * to roll back.
 */
final class SavepointUpgrade {

    private static final Duration GROUP_RECHECK = Duration.ofMillis(500);
    private static final DateTimeFormatter ID_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /** What the command was given. */
    record Plan(
            String app,
            TopologyDescription next,
            TopologyModel nextModel,
            String savepointPrefix,
            SavepointRestore.Options restore,
            Duration savepointTimeout,
            Duration stopTimeout,
            String release) {}

    /** How it ended, when it did not fail. */
    enum Outcome {
        NO_RECORD,
        SAFE,
        RESTORED
    }

    private final AppOptions app;
    private final WeirConfig config;
    private final StatefulSetScale statefulSet;
    private final PrintWriter out;
    /** {@code upgrade} or {@code rollback}, for messages. */
    private String action = "upgrade";

    SavepointUpgrade(AppOptions app, StatefulSetScale statefulSet) {
        this.app = app;
        this.config = app.config();
        this.statefulSet = statefulSet;
        this.out = app.out();
    }

    /** The pre-upgrade hook: the steps of the class comment. */
    Outcome upgrade(Plan plan) {
        Optional<TopologyDiff> diff = compare(plan);
        if (diff.isEmpty()) {
            say("nothing to carry over; the pods roll as usual");
            return Outcome.NO_RECORD;
        }
        if (diff.get().verdict() == TopologyDiff.Verdict.SAFE) {
            say("the change is safe for a rolling upgrade: no savepoint; the pods roll as usual");
            return Outcome.SAFE;
        }
        refuseWhatASavepointCannotCarry(plan, diff.get());
        int replicas = replicas(plan);
        String id = plan.savepointPrefix() + ID_TIME.format(Instant.now());
        Manifest savepoint = takeSavepointAndStop(plan, id);
        stopKubernetesFromRestarting(plan, savepoint, replicas);
        awaitNoMember(plan, savepoint);
        restore(plan, savepoint, "the new topology");
        say("restored savepoint " + savepoint.id() + " into the new topology of " + plan.app() + "; the upgrade goes"
                + " on: the new StatefulSet brings the replicas back and they start from it");
        return Outcome.RESTORED;
    }

    /** The pre-rollback hook: back to the newest pre-upgrade savepoint, when the state changed. */
    Outcome rollback(Plan plan) {
        action = "rollback";
        Optional<TopologyDiff> diff = compare(plan);
        if (diff.isEmpty()) {
            // A restore that failed half-way deleted the record: with the StatefulSet left at 0 by the
            // failed upgrade, the state to go back to is the pre-upgrade savepoint's, not what is left.
            if (replicas(plan) != 0) {
                say("nothing to carry over; the pods roll as usual");
                return Outcome.NO_RECORD;
            }
            say("statefulset " + statefulSet.name() + " is at 0 replicas (an upgrade stopped the application):"
                    + " restoring the pre-upgrade savepoint");
        } else if (diff.get().verdict() == TopologyDiff.Verdict.SAFE) {
            say("the version rolled back to can take over the running state: no restore; the pods roll as usual");
            return Outcome.SAFE;
        }
        Manifest savepoint = newestFitting(plan)
                .orElseThrow(() -> new CommandFailedException("rollback of "
                        + plan.app() + " refused: the state changed and no savepoint with the prefix '"
                        + plan.savepointPrefix() + "' fits the topology rolled back to (weir savepoint list --app "
                        + plan.app() + "); nothing was changed"));
        say("rolling back to savepoint " + savepoint.id() + " (taken " + Instant.ofEpochMilli(savepoint.createdAt())
                + "): what was processed since is processed again by the version rolled back to");
        int replicas = replicas(plan);
        stopKubernetesFromRestarting(plan, savepoint, replicas);
        awaitNoMember(plan, savepoint);
        restore(plan, savepoint, "the topology rolled back to");
        say("restored savepoint " + savepoint.id() + "; the rollback goes on");
        return Outcome.RESTORED;
    }

    /** The diff of the recorded and the new topology, printed; empty (and said) when nothing is recorded. */
    private Optional<TopologyDiff> compare(Plan plan) {
        Optional<TopologyDescription> record = recorded(plan.app());
        if (record.isEmpty()) {
            say("no topology recorded for " + plan.app() + " (a first install, instances that never started, or a"
                    + " restore that failed half-way)");
            return Optional.empty();
        }
        TopologyDescription recorded = record.get();
        TopologyDiff diff = TopologyDiff.between(recorded, plan.next());
        out.print(diff.report());
        out.flush();
        return Optional.of(diff);
    }

    /** The topology the running version recorded; empty when its topic does not exist or is empty. */
    private Optional<TopologyDescription> recorded(String appId) {
        try (Admin admin = app.admin(config)) {
            java.util.Set<String> topics = io.weir.common.internal.KafkaCalls.get(
                    admin.listTopics().names(), ClusterOptions.TIMEOUT, "reach Kafka at " + config.bootstrapServers());
            if (!topics.contains(io.weir.internal.config.InternalTopic.TOPOLOGY.of(appId))) {
                return Optional.empty();
            }
        }
        try {
            return io.weir.internal.topology.TopologyRecord.read(
                    config.consumerOverrides(), appId, ClusterOptions.TIMEOUT);
        } catch (RuntimeException e) {
            throw new CommandFailedException(
                    action + " of " + appId + " refused: cannot read the recorded topology (" + e.getMessage()
                            + "); nothing was changed",
                    e);
        }
    }

    /**
     * Fails before anything is touched when the restore would refuse the savepoint: stores the new
     * code cannot read, or logged state dropped without leave.
     */
    private void refuseWhatASavepointCannotCarry(Plan plan, TopologyDiff diff) {
        if (!diff.incompatibleStores().isEmpty()) {
            throw new CommandFailedException("upgrade of " + plan.app() + " refused: a savepoint cannot carry store(s) "
                    + diff.incompatibleStores() + " (" + String.join("; ", diff.reasons()) + "); give them new names,"
                    + " or reset the application (weir reset); nothing was changed, the old version keeps running");
        }
        plan.restore().storeMap().forEach((old, renamed) -> {
            TopologyDescription.StoreInfo b = diff.before().store(old);
            TopologyDescription.StoreInfo a = diff.after().store(renamed);
            if (b == null || a == null) {
                throw new CommandFailedException("upgrade of " + plan.app() + " refused: --map-store " + old + "="
                        + renamed + " (upgrade.mapStores) names a store "
                        + (b == null ? "the running version" : "the new version")
                        + " does not have; nothing was changed, the old version keeps running");
            }
            if (!Objects.equals(b.kind(), a.kind())
                    || !Objects.equals(b.keyFormat(), a.keyFormat())
                    || !Objects.equals(b.valueFormat(), a.valueFormat())
                    || !Objects.equals(b.windowSizeMs(), a.windowSizeMs())) {
                throw new CommandFailedException("upgrade of " + plan.app() + " refused: store " + old + " cannot be"
                        + " restored into " + renamed + " (" + b.kind() + " " + b.keyFormat() + "/" + b.valueFormat()
                        + " -> " + a.kind() + " " + a.keyFormat() + "/" + a.valueFormat() + "); nothing was changed,"
                        + " the old version keeps running");
            }
        });
        // A renamed store given in storeMap carries its state: not dropped.
        List<String> dropped = diff.storesRemoved().stream()
                .filter(s ->
                        diff.before().store(s) != null && diff.before().store(s).logged())
                .filter(s -> !plan.restore().storeMap().containsKey(s))
                .toList();
        if (!dropped.isEmpty() && !plan.restore().allowDroppedState()) {
            throw new CommandFailedException("upgrade of " + plan.app() + " refused: the new version drops the state"
                    + " of store(s) " + dropped + "; allow it with upgrade.allowDroppedState=true"
                    + " (--allow-dropped-state); nothing was changed, the old version keeps running");
        }
    }

    /** The StatefulSet's replicas: also proves, before anything is touched, that the account may read it. */
    private int replicas(Plan plan) {
        try {
            return statefulSet.replicas();
        } catch (RuntimeException e) {
            throw new CommandFailedException(
                    action + " of " + plan.app() + " refused: cannot read statefulset " + statefulSet.name() + " ("
                            + e.getMessage() + "); nothing was changed",
                    e);
        }
    }

    private Manifest takeSavepointAndStop(Plan plan, String id) {
        say("state change: taking savepoint " + id + " and stopping " + plan.app() + " after it");
        try {
            return SavepointCommand.take(
                    app, id, true, (int) plan.savepointTimeout().toSeconds());
        } catch (RuntimeException e) {
            throw new CommandFailedException(
                    "upgrade of " + plan.app() + " failed: savepoint " + id + " could not be" + " taken ("
                            + e.getMessage() + "); the old version keeps running; nothing was changed",
                    e);
        }
    }

    private void stopKubernetesFromRestarting(Plan plan, Manifest savepoint, int replicas) {
        say("scaling statefulset " + statefulSet.name() + " from " + replicas + " to 0 replicas");
        try {
            statefulSet.scaleTo(0);
        } catch (RuntimeException e) {
            throw failed(
                    plan,
                    savepoint,
                    "scaling statefulset " + statefulSet.name() + " to 0 failed (" + e.getMessage()
                            + "); Kubernetes restarts the old version, which goes on from the savepoint's offsets");
        }
    }

    private void awaitNoMember(Plan plan, Manifest savepoint) {
        say("waiting for the instances of " + plan.app() + " to leave the consumer group");
        boolean empty;
        try (Admin admin = app.admin(config)) {
            empty = Poll.until(
                    () -> Groups.describe(admin, plan.app())
                            .map(ConsumerGroupDescription::members)
                            .map(java.util.Collection::isEmpty)
                            .orElse(true),
                    plan.stopTimeout(),
                    GROUP_RECHECK);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failed(plan, savepoint, "interrupted while waiting for the instances to stop");
        }
        if (!empty) {
            throw failed(
                    plan,
                    savepoint,
                    "the consumer group " + plan.app() + " still has members "
                            + plan.stopTimeout().toSeconds()
                            + " s after the scale to 0 (pods not terminating, or static"
                            + " members waiting out session.timeout.ms)");
        }
    }

    private void restore(Plan plan, Manifest savepoint, String into) {
        say("restoring savepoint " + savepoint.id() + " into " + into);
        try {
            SavepointRestore.Result r = new SavepointRestore(config, plan.nextModel(), this::say)
                    .restore(new SavepointCatalog(config), savepoint, plan.restore());
            say("restored " + r.entries() + " entries and " + r.offsetsCommitted() + " input offsets");
        } catch (RuntimeException e) {
            throw failed(plan, savepoint, "restoring it into " + into + " failed (" + e.getMessage() + ")");
        }
    }

    /** The newest complete savepoint with the plan's prefix whose stores the target topology can load. */
    private Optional<Manifest> newestFitting(Plan plan) {
        return new SavepointCatalog(config)
                .list().stream()
                        .filter(m -> m.id().startsWith(plan.savepointPrefix()))
                        .filter(m -> SavepointCompatibility.check(m, plan.nextModel())
                                .problems(plan.restore().allowDroppedState())
                                .isEmpty())
                        .max(Comparator.comparingLong(Manifest::createdAt));
    }

    /** A failure after the savepoint: one line naming it, the application's state, and the way back. */
    private CommandFailedException failed(Plan plan, Manifest savepoint, String what) {
        return new CommandFailedException(action + " of " + plan.app() + " failed: " + what + ". Its state is in"
                + " savepoint " + savepoint.id() + " and statefulset " + statefulSet.name() + " may be at 0 replicas;"
                + " roll back with `helm rollback " + plan.release() + "` (its hook restores the savepoint into the old"
                + " version), or by hand: weir savepoint restore --app " + plan.app() + " --id " + savepoint.id()
                + " --topology-file OLD.json, then scale the statefulset back");
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }
}
