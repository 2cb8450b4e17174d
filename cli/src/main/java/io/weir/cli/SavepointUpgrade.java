package io.weir.cli;

import io.weir.config.WeirConfig;
import io.weir.internal.savepoint.Manifest;
import io.weir.internal.savepoint.SavepointCatalog;
import io.weir.internal.savepoint.SavepointCompatibility;
import io.weir.internal.savepoint.SavepointRestore;
import io.weir.internal.topology.DescribedModel;
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
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;

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
 * Each step from the savepoint on is marked on the StatefulSet ({@link UpgradeMark}). A failure
 * this process sees after the scale to 0 puts the old version back ({@link #putTheOldVersionBack}):
 * the savepoint restored into the recorded topology if the restore had begun, the replicas scaled
 * back. A process killed in between (the Job's deadline, Helm deleting the Job) leaves the mark:
 * the next attempt of the upgrade resumes from the marked savepoint, and a rollback restores it.
 *
 * <p>A rollback does the same without taking a savepoint: it restores the marked savepoint (else
 * the newest pre-upgrade savepoint) that fits the topology rolled back to, when the state changed,
 * when no topology is recorded while the StatefulSet is at 0 (an upgrade whose restore failed
 * half-way), or when an upgrade is marked and the new version never recorded its topology (it never
 * started). Rolled back to a revision of {@code upgrade.mode=rolling}, it acts only when an upgrade
 * is marked. Every failure is a {@link CommandFailedException} of one line that says what state
 * the application is in, which savepoint holds its state and how to roll back.
 */
final class SavepointUpgrade {

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

    /** How the revision rolled back to upgrades: a rolling one undoes only a marked savepoint upgrade. */
    enum RollbackTo {
        SAVEPOINT_MODE,
        ROLLING_MODE
    }

    /** How it ended, when it did not fail. */
    enum Outcome {
        NO_RECORD,
        SAFE,
        RESTORED,
        /** An unfinished upgrade, resumed from its savepoint. */
        RESUMED
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
        Optional<TopologyDescription> record = recorded(plan.app());
        int replicas = replicas(plan);
        Optional<UpgradeMark> mark = mark();
        if (replicas == 0 && mark.filter(m -> m.unfinished(record.isPresent())).isPresent()) {
            return resume(plan, mark.get());
        }
        Optional<TopologyDiff> diff = compare(plan, record);
        if (diff.isEmpty()) {
            say("nothing to carry over; the pods roll as usual");
            return Outcome.NO_RECORD;
        }
        if (diff.get().verdict() == TopologyDiff.Verdict.SAFE) {
            say("the change is safe for a rolling upgrade: no savepoint; the pods roll as usual");
            return Outcome.SAFE;
        }
        SavepointCarryCheck.refuseWhatASavepointCannotCarry(plan, diff.get());
        String id = timestamped(plan.savepointPrefix());
        Manifest savepoint = takeSavepointAndStop(plan, id);
        UpgradeMark stopped = new UpgradeMark(savepoint.id(), replicas, UpgradeMark.Phase.stopped);
        mark(plan, savepoint, stopped);
        try {
            stopKubernetesFromRestarting(plan, savepoint, replicas);
        } catch (CommandFailedException e) {
            clearMark(plan); // Kubernetes restarts the old version: nothing is left unfinished
            throw e;
        }
        boolean restoreBegun = false;
        try {
            awaitNoMember(plan, savepoint);
            restoreBegun = true;
            mark(plan, savepoint, stopped.withPhase(UpgradeMark.Phase.restoring));
            restore(plan, plan.nextModel(), plan.restore(), savepoint, "the new topology");
        } catch (CommandFailedException e) {
            throw putTheOldVersionBack(plan, savepoint, diff.get().before(), replicas, restoreBegun, e);
        }
        mark(plan, savepoint, stopped.withPhase(UpgradeMark.Phase.restored));
        say("restored savepoint " + savepoint.id() + " into the new topology of " + plan.app() + "; the upgrade goes"
                + " on: the new StatefulSet brings the replicas back and they start from it");
        return Outcome.RESTORED;
    }

    /** A savepoint id: the prefix and the UTC time to the second. */
    static String timestamped(String prefix) {
        return prefix + ID_TIME.format(Instant.now());
    }

    /**
     * An earlier attempt stopped the application at its savepoint and did not finish (its process was
     * killed): nothing ran since, so the savepoint still holds the whole state; restore it into the
     * new topology.
     */
    private Outcome resume(Plan plan, UpgradeMark mark) {
        say("statefulset " + statefulSet.name() + " is at 0 replicas, left by an upgrade that did not finish (" + mark
                + "): resuming it from that savepoint, no new one");
        Manifest savepoint = new SavepointCatalog(config)
                .find(mark.savepoint())
                .orElseThrow(() -> new CommandFailedException("upgrade of " + plan.app() + " refused: statefulset "
                        + statefulSet.name() + " is at 0 replicas, marked by an unfinished upgrade whose savepoint "
                        + mark.savepoint() + " is gone (weir savepoint list --app " + plan.app() + "); restore another"
                        + " by hand (weir savepoint restore), then remove annotation " + UpgradeMark.ANNOTATION));
        awaitNoMember(plan, savepoint);
        mark(plan, savepoint, mark.withPhase(UpgradeMark.Phase.restoring));
        restore(plan, plan.nextModel(), plan.restore(), savepoint, "the new topology");
        mark(plan, savepoint, mark.withPhase(UpgradeMark.Phase.restored));
        say("restored savepoint " + savepoint.id() + " into the new topology of " + plan.app() + "; the upgrade goes"
                + " on: the new StatefulSet brings the replicas back and they start from it");
        return Outcome.RESUMED;
    }

    /** The pre-rollback hook: back to the marked, else the newest, pre-upgrade savepoint, when the state changed. */
    Outcome rollback(Plan plan, RollbackTo to) {
        action = "rollback";
        Optional<TopologyDescription> record = recorded(plan.app());
        int replicas = replicas(plan);
        Optional<UpgradeMark> mark = mark();
        if (to == RollbackTo.ROLLING_MODE && mark.isEmpty()) {
            say("no savepoint upgrade is marked on statefulset " + statefulSet.name() + " (annotation "
                    + UpgradeMark.ANNOTATION + "): nothing to undo; the pods roll as usual");
            return Outcome.NO_RECORD;
        }
        Optional<TopologyDiff> diff = compare(plan, record);
        if (diff.isEmpty()) {
            // A restore that failed half-way deleted the record: with the StatefulSet left at 0 by the
            // failed upgrade, the state to go back to is the pre-upgrade savepoint's, not what is left.
            // A marked upgrade whose new version never recorded its topology never processed anything.
            if (replicas != 0 && mark.isEmpty()) {
                say("nothing to carry over; the pods roll as usual");
                return Outcome.NO_RECORD;
            }
            say(
                    replicas == 0
                            ? "statefulset " + statefulSet.name()
                                    + " is at 0 replicas (an upgrade stopped the application):"
                                    + " restoring the pre-upgrade savepoint"
                            : "an upgrade is marked (" + mark.get()
                                    + ") and the new version never recorded its topology:"
                                    + " restoring the pre-upgrade savepoint");
        } else if (diff.get().verdict() == TopologyDiff.Verdict.SAFE) {
            say("the version rolled back to can take over the running state: no restore; the pods roll as usual");
            return Outcome.SAFE;
        }
        Optional<Manifest> fitting = markedIfItFits(plan, mark).or(() -> newestFitting(plan));
        if (fitting.isEmpty() && to == RollbackTo.ROLLING_MODE) {
            say("no savepoint with the prefix '" + plan.savepointPrefix() + "' fits the topology rolled back to:"
                    + " the pods roll as usual on the running state (upgrade.mode=rolling)");
            return Outcome.NO_RECORD;
        }
        Manifest savepoint = fitting.orElseThrow(() -> new CommandFailedException("rollback of "
                + plan.app() + " refused: the state changed and no savepoint with the prefix '"
                + plan.savepointPrefix() + "' fits the topology rolled back to (weir savepoint list --app "
                + plan.app() + "); nothing was changed"));
        say("rolling back to savepoint " + savepoint.id() + " (taken " + Instant.ofEpochMilli(savepoint.createdAt())
                + "): what was processed since is processed again by the version rolled back to");
        UpgradeMark restoring = new UpgradeMark(
                savepoint.id(), mark.map(UpgradeMark::replicas).orElse(replicas), UpgradeMark.Phase.restoring);
        mark(plan, savepoint, restoring);
        stopKubernetesFromRestarting(plan, savepoint, replicas);
        awaitNoMember(plan, savepoint);
        restore(plan, plan.nextModel(), plan.restore(), savepoint, "the topology rolled back to");
        clearMark(plan);
        say("restored savepoint " + savepoint.id() + "; the rollback goes on");
        return Outcome.RESTORED;
    }

    /**
     * After a failure past the scale to 0: the old version back on the savepoint's state, the
     * replicas as they were. The failure this returns says whether that worked.
     */
    private CommandFailedException putTheOldVersionBack(
            Plan plan,
            Manifest savepoint,
            TopologyDescription old,
            int replicas,
            boolean restoreBegun,
            CommandFailedException failure) {
        try {
            if (restoreBegun) {
                // The internal topics may be half rewritten for the new topology: the old one's from the savepoint.
                restore(
                        plan,
                        DescribedModel.of(old, plan.app()),
                        new SavepointRestore.Options(false, java.util.Map.of()),
                        savepoint,
                        "the old topology");
            }
            say("scaling statefulset " + statefulSet.name() + " back to " + replicas + " replicas");
            statefulSet.scaleTo(replicas);
            statefulSet.annotate(UpgradeMark.ANNOTATION, null);
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
            return new CommandFailedException(
                    failure.getMessage() + " Putting the old version back failed too (" + e.getMessage() + ")",
                    failure);
        }
        return new CommandFailedException(
                failure.getMessage().replaceFirst("\\. Its state is in savepoint .*", "") + ". The old version runs"
                        + " again: "
                        + (restoreBegun ? "savepoint " + savepoint.id() + " restored into its topology, " : "")
                        + "statefulset " + statefulSet.name() + " scaled back to " + replicas + " replicas; it goes on"
                        + " from savepoint " + savepoint.id() + " (nothing lost); fix the cause and upgrade again",
                failure);
    }

    /** The diff of the recorded and the new topology, printed; empty (and said) when nothing is recorded. */
    private Optional<TopologyDiff> compare(Plan plan, Optional<TopologyDescription> record) {
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
        List<String> left;
        try (Admin admin = app.admin(config)) {
            left = ActiveMembers.awaitNone(admin, plan.app(), plan.stopTimeout(), () -> true);
        }
        if (!left.isEmpty()) {
            throw failed(
                    plan,
                    savepoint,
                    "the consumer group " + plan.app() + " still has members "
                            + plan.stopTimeout().toSeconds()
                            + " s after the scale to 0 (pods not terminating, or static"
                            + " members waiting out session.timeout.ms)");
        }
    }

    private void restore(
            Plan plan, TopologyModel model, SavepointRestore.Options options, Manifest savepoint, String into) {
        say("restoring savepoint " + savepoint.id() + " into " + into);
        try {
            SavepointRestore.Result r = new SavepointRestore(config, model, this::say)
                    .restore(new SavepointCatalog(config), savepoint, options);
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
                        .filter(m -> fits(plan, m))
                        .max(Comparator.comparingLong(Manifest::createdAt));
    }

    /** The marked upgrade's savepoint, if it is complete and fits the topology rolled back to. */
    private Optional<Manifest> markedIfItFits(Plan plan, Optional<UpgradeMark> mark) {
        return mark.flatMap(m -> new SavepointCatalog(config).find(m.savepoint()))
                .filter(m -> fits(plan, m));
    }

    private static boolean fits(Plan plan, Manifest m) {
        return SavepointCompatibility.check(m, plan.nextModel())
                .problems(plan.restore().allowDroppedState())
                .isEmpty();
    }

    /** The upgrade marked on the StatefulSet, if any. */
    private Optional<UpgradeMark> mark() {
        try {
            return statefulSet.annotation(UpgradeMark.ANNOTATION).flatMap(v -> UpgradeMark.decode(v, this::say));
        } catch (RuntimeException e) {
            throw new CommandFailedException(
                    action + " refused: cannot read statefulset " + statefulSet.name() + " (" + e.getMessage()
                            + "); nothing was changed",
                    e);
        }
    }

    private void mark(Plan plan, Manifest savepoint, UpgradeMark mark) {
        try {
            statefulSet.annotate(UpgradeMark.ANNOTATION, mark.encode());
        } catch (RuntimeException e) {
            throw failed(
                    plan, savepoint, "marking statefulset " + statefulSet.name() + " failed (" + e.getMessage() + ")");
        }
    }

    private void clearMark(Plan plan) {
        try {
            statefulSet.annotate(UpgradeMark.ANNOTATION, null);
        } catch (RuntimeException e) {
            say("could not remove annotation " + UpgradeMark.ANNOTATION + " from statefulset " + statefulSet.name()
                    + " (" + e.getMessage() + "); remove it by hand");
        }
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
