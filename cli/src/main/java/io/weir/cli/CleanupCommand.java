package io.weir.cli;

import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.kubernetes.KubernetesApi;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir cleanup}: removes what an application leaves on the cluster once it is gone (what the
 * Helm chart's post-delete hook runs): its consumer group, the topics it created for itself
 * (changelog, repartition, liveness, topology and control; the savepoints with
 * {@code --savepoints}), and, on Kubernetes, its StatefulSet's volume claims and the record of
 * {@code weir replay}. Never its input and output topics, its dead letters or late records, nor a
 * topic its group reads. Refused while the group has members; idempotent: what is already gone is
 * skipped, so a second run reports nothing left.
 */
@Command(
        name = "cleanup",
        description = "Deletes what a removed application left: its consumer group, its changelog, repartition,"
                + " liveness, topology and control topics (savepoints with --savepoints) and, with --delete-volumes,"
                + " its StatefulSet's volume claims. Refused while the application has running instances; what is"
                + " already gone is skipped.")
final class CleanupCommand implements Callable<Integer> {

    private static final Set<InternalTopic> ALWAYS = EnumSet.of(
            InternalTopic.CHANGELOG,
            InternalTopic.REPARTITION,
            InternalTopic.LIVENESS,
            InternalTopic.TOPOLOGY,
            InternalTopic.CONTROL);

    @Mixin
    AppOptions app;

    @Mixin
    KubernetesOptions kubernetes;

    @Option(
            names = "--savepoints",
            description = "also delete the savepoints topic (every savepoint of the application)")
    boolean savepoints;

    @Option(
            names = "--wait",
            paramLabel = "SECONDS",
            defaultValue = "0",
            description = "how long the instances (and, with --statefulset, the StatefulSet) may take to go before"
                    + " the clean-up is refused (default: ${DEFAULT-VALUE}: check once)")
    int waitSeconds;

    @Option(
            names = "--statefulset",
            paramLabel = "NAME",
            description = "the StatefulSet that ran the application: it must be gone (Kubernetes)")
    String statefulSet;

    @Option(
            names = "--delete-volumes",
            description = "with --statefulset: delete its PersistentVolumeClaims <claim>-<NAME>-<ordinal> (Kubernetes)")
    boolean deleteVolumes;

    @Option(
            names = "--volume-claim",
            paramLabel = "NAME",
            defaultValue = "state",
            description = "the StatefulSet's volume claim template (default: ${DEFAULT-VALUE})")
    String volumeClaim;

    @Option(
            names = "--volume-label",
            paramLabel = "KEY=VALUE",
            description = "only claims with these labels (the chart passes its selector labels)")
    Map<String, String> volumeLabels = new LinkedHashMap<>();

    @Option(
            names = "--record",
            paramLabel = "NAME",
            description = "the ConfigMap where weir replay recorded its replays, deleted too (Kubernetes)")
    String record;

    @Option(names = "--dry-run", description = "print what would be deleted; delete nothing")
    boolean dryRun;

    @Override
    public Integer call() {
        if (waitSeconds < 0) {
            throw app.usage("--wait must not be negative");
        }
        if (deleteVolumes && statefulSet == null) {
            throw app.usage("--delete-volumes needs --statefulset (the claims are named after it)");
        }
        WeirConfig config = app.config();
        PrintWriter out = app.out();
        KubernetesApi api = statefulSet != null || record != null ? kubernetes.api() : null;
        try (Admin admin = app.admin(config)) {
            awaitGone(admin, api);
            Set<String> topics = topics(admin, config);
            List<String> claims = deleteVolumes ? claims(api) : List.of();
            boolean group = Groups.describe(admin, app.id).isPresent();
            print(out, group, topics, claims);
            if (dryRun) {
                out.println("Dry run: nothing was deleted.");
                return Weir.OK;
            }
            if (group) {
                deleteGroup(admin);
            }
            deleteTopics(admin, topics);
            for (String claim : claims) {
                api.deletePersistentVolumeClaim(claim);
            }
            boolean recordDeleted = record != null && api.deleteConfigMap(record);
            out.printf(
                    "Cleaned up %s: group %s, %d topic(s), %d volume claim(s)%s deleted.%n",
                    app.id,
                    group ? "deleted" : "already gone",
                    topics.size(),
                    claims.size(),
                    recordDeleted ? ", replay record " + record : "");
        }
        return Weir.OK;
    }

    /** Refuses, with nothing deleted, while an instance or the StatefulSet is still there. */
    private void awaitGone(Admin admin, KubernetesApi api) {
        boolean watchStatefulSet = api != null && statefulSet != null;
        List<String> members = ActiveMembers.awaitNone(
                admin,
                app.id,
                Duration.ofSeconds(waitSeconds),
                () -> !watchStatefulSet || !api.statefulSetExists(statefulSet));
        if (!members.isEmpty()) {
            throw new CommandFailedException("clean-up of " + app.id + " refused: its group has " + members.size()
                    + " active member(s) " + members + (waitSeconds > 0 ? " after " + waitSeconds + " s" : "")
                    + "; stop every instance first (uninstall the release, or scale it to 0); nothing was deleted");
        }
        if (watchStatefulSet && api.statefulSetExists(statefulSet)) {
            throw new CommandFailedException("clean-up of " + app.id + " refused: statefulset " + statefulSet
                    + " still exists; uninstall the release (or delete the statefulset) first; nothing was deleted");
        }
    }

    /**
     * The application's own topics, by name; never one its group has offsets for (a table's source
     * can be named like a changelog), nor one of another application whose id extends this one's
     * ({@code app} and {@code app-x}: {@code app-x-s-changelog} is app-x's).
     */
    private Set<String> topics(Admin admin, WeirConfig config) {
        Set<InternalTopic> kinds = EnumSet.copyOf(ALWAYS);
        if (savepoints) {
            kinds.add(InternalTopic.SAVEPOINTS);
        }
        Set<String> existing = KafkaCalls.get(admin.listTopics().names(), ClusterOptions.TIMEOUT, "list topics");
        Set<String> own = new TreeSet<>();
        existing.stream()
                .filter(t -> AppTopics.kindOf(config, t).filter(kinds::contains).isPresent())
                .forEach(own::add);
        List<String> longerIds =
                KafkaCalls.get(admin.listConsumerGroups().all(), ClusterOptions.TIMEOUT, "list groups").stream()
                        .map(ConsumerGroupListing::groupId)
                        .filter(g -> g.startsWith(app.id + "-"))
                        .toList();
        own.removeIf(t -> longerIds.stream().anyMatch(g -> t.startsWith(g + "-")));
        return ResetCommand.neverInputs(own, Set.of(), null, Groups.committed(admin, app.id), config);
    }

    private List<String> claims(KubernetesApi api) {
        Pattern ordinal = Pattern.compile(Pattern.quote(volumeClaim + "-" + statefulSet + "-") + "\\d+");
        return api.persistentVolumeClaims(volumeLabels).stream()
                .filter(n -> ordinal.matcher(n).matches())
                .toList();
    }

    private void print(PrintWriter out, boolean group, Set<String> topics, List<String> claims) {
        out.printf("Clean-up of %s%s%n", app.id, dryRun ? " (dry run)" : "");
        out.println(group ? "Consumer group " + app.id + ": delete" : "Consumer group " + app.id + ": already gone");
        if (topics.isEmpty()) {
            out.println("No topics of the application left.");
        } else {
            out.println("Topics to delete:");
            topics.forEach(t -> out.println("  " + t));
        }
        if (deleteVolumes) {
            out.println(claims.isEmpty() ? "No volume claims left." : "Volume claims to delete: " + claims);
        }
    }

    private void deleteGroup(Admin admin) {
        try {
            KafkaCalls.get(
                    admin.deleteConsumerGroups(List.of(app.id)).all(),
                    ClusterOptions.TIMEOUT,
                    "delete the consumer group " + app.id);
        } catch (ClusterException e) {
            if (e.getCause() instanceof GroupNotEmptyException) {
                throw new CommandFailedException(
                        "clean-up of " + app.id + " refused: an instance joined the group"
                                + " meanwhile; stop every instance first; nothing was deleted",
                        e);
            }
            if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                throw e;
            }
        }
    }

    private static void deleteTopics(Admin admin, Set<String> topics) {
        if (topics.isEmpty()) {
            return;
        }
        try {
            KafkaCalls.get(admin.deleteTopics(topics).all(), ClusterOptions.TIMEOUT, "delete the topics " + topics);
        } catch (ClusterException e) {
            // Gone meanwhile (a clean-up running twice): what was asked for holds.
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
        }
        ResetCommand.awaitDeleted(admin, topics);
    }
}
