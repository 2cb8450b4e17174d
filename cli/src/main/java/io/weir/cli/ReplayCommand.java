package io.weir.cli;

import io.weir.internal.kubernetes.KubernetesApi;
import io.weir.internal.kubernetes.KubernetesApiException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir replay}: a reset ({@code --to}, as {@code weir reset}) or a savepoint restore
 * ({@code --savepoint}, as {@code weir savepoint restore}) done at most once per replay id, what the
 * Helm chart's reset hook runs before every install and upgrade while {@code reset.enabled}. Unless
 * the record (a ConfigMap) already holds the id for this application, it scales the StatefulSet to 0,
 * waits for the instances to leave the group, replays, and then writes the id into the record; the
 * new StatefulSet that Helm applies next brings the replicas back.
 *
 * <p>Why a ConfigMap: it must outlive the Helm revision (a retried hook or the next, unrelated
 * upgrade must find it) and be written by the Job itself right after the replay. The committed
 * offsets' metadata is overwritten by the application's first commit, and the offsets expire with
 * an empty group; the StatefulSet does not exist before an install; and Helm's {@code lookup}
 * sees nothing under {@code helm template} or a GitOps controller. A failure before the record is
 * written leaves the id unrecorded, so the next attempt replays again, from the same point: the
 * application has not run in between (its StatefulSet stays at 0).
 */
@Command(
        name = "replay",
        description = "Resets an application (--to) or restores a savepoint into it (--savepoint) once per replay"
                + " id (Kubernetes): unless the record ConfigMap holds the id, scales the StatefulSet to 0, waits"
                + " for the instances to leave the group, replays, and records the id.")
final class ReplayCommand implements Callable<Integer> {

    static final String KEY_ID = "replay-id";
    static final String KEY_APP = "application-id";
    static final String KEY_TARGET = "target";
    static final String KEY_AT = "done-at";
    static final String KEY_REVISION = "revision";

    @Mixin
    AppOptions app;

    @Mixin
    KubernetesOptions kubernetes;

    @Mixin
    TopologyOptions topology;

    @Mixin
    RestoreOptions restore;

    @Option(
            names = "--replay-id",
            paramLabel = "ID",
            required = true,
            description = "names this replay: it runs once per id (the chart's reset.id)")
    String replayId;

    @Option(
            names = "--record",
            paramLabel = "NAME",
            required = true,
            description = "the ConfigMap that records the last replay (created when missing)")
    String record;

    @Option(names = "--record-label", paramLabel = "KEY=VALUE", description = "labels of the record ConfigMap")
    Map<String, String> recordLabels = new LinkedHashMap<>();

    @Option(
            names = "--to",
            paramLabel = "POSITION",
            description = "reset to earliest, latest, an ISO-8601 instant or a duration before now, as weir reset")
    String to;

    @Option(
            names = "--topics",
            split = ",",
            paramLabel = "TOPIC",
            description = "with --to: the input topics (default: those the group has committed offsets for)")
    List<String> topics;

    @Option(
            names = "--savepoint",
            paramLabel = "ID",
            description = "instead of --to: restore this savepoint (needs --topology-file, the new version's topology)")
    String savepoint;

    @Option(
            names = "--statefulset",
            paramLabel = "NAME",
            description = "the StatefulSet running the application, scaled to 0 first (absent on a first install)")
    String statefulSet;

    @Option(
            names = "--stop-timeout",
            paramLabel = "SECONDS",
            defaultValue = "300",
            description = "how long the instances may take to leave the consumer group (default: ${DEFAULT-VALUE})")
    int stopTimeoutSeconds;

    @Option(names = "--revision", paramLabel = "N", description = "the Helm revision, written into the record")
    String revision;

    @Override
    public Integer call() {
        // Every option first: a bad call fails before the cluster or Kubernetes is asked.
        if ((to == null) == (savepoint == null)) {
            throw app.usage("give exactly one of --to and --savepoint");
        }
        if (!replayId.matches("[A-Za-z0-9._-]{1,63}")) {
            throw app.usage("--replay-id must be 1 to 63 letters, digits, '.', '_' or '-', not '" + replayId + "'");
        }
        if (stopTimeoutSeconds <= 0) {
            throw app.usage("--stop-timeout must be positive");
        }
        if (savepoint != null && topics != null) {
            throw app.usage("--topics goes with --to; a savepoint holds its own input offsets");
        }
        ResetTarget target = null;
        if (to != null) {
            try {
                target = ResetTarget.parse(to, Clock.systemUTC());
            } catch (IllegalArgumentException e) {
                throw app.usage("--to: " + e.getMessage());
            }
        }
        var model = savepoint != null ? topology.model(app.id) : null;
        PrintWriter out = app.out();
        KubernetesApi api = kubernetes.api();
        Optional<Map<String, String>> done = recorded(api);
        if (done.isPresent()) {
            say(
                    out,
                    "replay " + replayId + " of " + app.id + " was done at "
                            + done.get().get(KEY_AT) + " (" + done.get().get(KEY_TARGET)
                            + "); nothing to do: give a new id to replay again");
            return Weir.OK;
        }
        stop(api, out);
        if (savepoint != null) {
            SavepointCommand.Restore restoring = new SavepointCommand.Restore();
            restoring.app = app;
            restoring.topology = topology;
            restoring.restore = restore;
            restoring.id = savepoint;
            restoring.call();
        } else if (nothingToMove()) {
            say(
                    out,
                    "the group " + app.id + " has no committed offsets and no --topics were given: nothing to"
                            + " reset; the application starts where auto.offset.reset says");
        } else {
            ResetCommand reset = new ResetCommand();
            reset.app = app;
            reset.to = target;
            reset.topics = topics;
            reset.topologyOptions = topology.className != null ? topology : null;
            reset.call();
        }
        Map<String, String> data = new LinkedHashMap<>();
        data.put(KEY_ID, replayId);
        data.put(KEY_APP, app.id);
        data.put(KEY_TARGET, savepoint != null ? "savepoint " + savepoint : "to " + to + " (" + target + ")");
        data.put(KEY_AT, Instant.now().toString());
        if (revision != null) {
            data.put(KEY_REVISION, revision);
        }
        try {
            api.writeConfigMap(record, recordLabels, data);
        } catch (KubernetesApiException e) {
            throw new CommandFailedException(
                    "replay " + replayId + " of " + app.id + " was done but could not be" + " recorded ("
                            + e.getMessage() + "); the next attempt replays again from the same point",
                    e);
        }
        say(out, "recorded replay " + replayId + " of " + app.id + " in configmap " + record);
        return Weir.OK;
    }

    /** The record, when it holds this replay of this application. */
    private Optional<Map<String, String>> recorded(KubernetesApi api) {
        try {
            return api.configMapData(record)
                    .filter(d -> replayId.equals(d.get(KEY_ID)) && app.id.equals(d.get(KEY_APP)));
        } catch (KubernetesApiException e) {
            throw new CommandFailedException(
                    "replay " + replayId + " of " + app.id + " refused: cannot read its" + " record (" + e.getMessage()
                            + "); nothing was changed",
                    e);
        }
    }

    /** The StatefulSet at 0 and no member left in the group. */
    private void stop(KubernetesApi api, PrintWriter out) {
        if (statefulSet != null) {
            try {
                if (api.statefulSetExists(statefulSet)) {
                    StatefulSetScale scale = kubernetes.statefulSet(statefulSet);
                    say(out, "scaling statefulset " + statefulSet + " from " + scale.replicas() + " to 0 replicas");
                    scale.scaleTo(0);
                } else {
                    say(out, "no statefulset " + statefulSet + " yet (a first install)");
                }
            } catch (KubernetesApiException e) {
                throw new CommandFailedException(
                        "replay " + replayId + " of " + app.id + " failed: cannot scale" + " statefulset " + statefulSet
                                + " to 0 (" + e.getMessage() + "); nothing was reset",
                        e);
            }
        }
        say(out, "waiting for the instances of " + app.id + " to leave the consumer group");
        List<String> left;
        try (Admin admin = app.admin(app.config())) {
            left = ActiveMembers.awaitNone(admin, app.id, Duration.ofSeconds(stopTimeoutSeconds), () -> true);
        }
        if (!left.isEmpty()) {
            throw new CommandFailedException("replay " + replayId + " of " + app.id + " failed: the group still has"
                    + " member(s) " + left + " " + stopTimeoutSeconds + " s after the scale to 0 (pods not"
                    + " terminating, or static members waiting out session.timeout.ms); nothing was reset and"
                    + (statefulSet != null ? " statefulset " + statefulSet + " is at 0 replicas:" : "")
                    + " run it again (helm upgrade), or roll back");
        }
    }

    private boolean nothingToMove() {
        if (topics != null && !topics.isEmpty()) {
            return false;
        }
        try (Admin admin = app.admin(app.config())) {
            return Groups.committed(admin, app.id).isEmpty();
        }
    }

    private static void say(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }
}
