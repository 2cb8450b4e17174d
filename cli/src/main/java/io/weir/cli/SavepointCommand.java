package io.weir.cli;

import io.weir.config.WeirConfig;
import io.weir.internal.json.Json;
import io.weir.internal.savepoint.ControlMessage;
import io.weir.internal.savepoint.Manifest;
import io.weir.internal.savepoint.SavepointCatalog;
import io.weir.internal.savepoint.SavepointRequest;
import io.weir.internal.savepoint.SavepointRestore;
import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyRecord;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir savepoint create|list|describe|delete|restore|prune}: savepoints stored in the
 * application's own topics ({@code <app>-control}, {@code <app>-savepoints}), taken from the
 * running instances at a consistent cut and restored into a stopped application of the same id
 * (roll back) or another (fork).
 */
@Command(
        name = "savepoint",
        description = "Takes, lists, describes, deletes, restores and prunes savepoints kept in Kafka.",
        subcommands = {
            SavepointCommand.Create.class,
            SavepointCommand.ListCommand.class,
            SavepointCommand.Describe.class,
            SavepointCommand.Delete.class,
            SavepointCommand.Restore.class,
            SavepointPrune.class
        })
final class SavepointCommand extends CommandGroup {

    @Command(
            name = "create",
            description = "Takes a savepoint of the running application: every task pauses at a"
                    + " commit (repartition topics drained), its stores are copied in the background, the manifest is"
                    + " written last.")
    static final class Create implements Callable<Integer> {

        @Mixin
        AppOptions app;

        @Option(names = "--id", paramLabel = "ID", description = "the savepoint's id (default: sp-<UTC time>)")
        String id;

        @Option(
                names = "--id-prefix",
                paramLabel = "PREFIX",
                description = "instead of --id: the id is PREFIX<UTC time>, e.g. periodic-20261203T092600Z")
        String idPrefix;

        @Option(
                names = "--timeout",
                paramLabel = "SECONDS",
                defaultValue = "120",
                description = "give up (and abort) after this long (default: ${DEFAULT-VALUE})")
        int timeoutSeconds;

        @Override
        public Integer call() {
            if (id != null && idPrefix != null) {
                throw app.usage("give --id or --id-prefix, not both");
            }
            take(app, idPrefix != null ? SavepointUpgrade.timestamped(idPrefix) : id, false, timeoutSeconds);
            return Weir.OK;
        }
    }

    /** Takes a savepoint, printing its progress; a failure is one line, exit 1. */
    static Manifest take(AppOptions app, String id, boolean stop, int timeoutSeconds) {
        if (timeoutSeconds <= 0) {
            throw app.usage("--timeout must be positive, not " + timeoutSeconds);
        }
        if (id != null && !id.matches("[A-Za-z0-9._-]{1,100}")) {
            throw app.usage("--id must be 1 to 100 letters, digits, '.', '_' or '-', not '" + id + "'");
        }
        PrintWriter out = app.out();
        WeirConfig config = app.config();
        String savepointId = id != null ? id : SavepointRequest.newId();
        try {
            Manifest m = new SavepointRequest(config, line -> {
                        out.println(line);
                        out.flush();
                    })
                    .take(savepointId, stop, Duration.ofSeconds(timeoutSeconds), recordedTopology(config));
            out.println(m.id());
            return m;
        } catch (IllegalStateException e) {
            throw new CommandFailedException(e.getMessage(), e);
        }
    }

    /** The topology the instances recorded, for the manifest; null if there is none. */
    private static com.fasterxml.jackson.databind.JsonNode recordedTopology(WeirConfig config) {
        try {
            return TopologyRecord.read(config.consumerOverrides(), config.applicationId(), Duration.ofSeconds(30))
                    .map(TopologyDescription::toJsonTree)
                    .orElse(null);
        } catch (RuntimeException e) {
            return null; // the manifest is complete without it; the restore checks stores by their formats
        }
    }

    @Command(name = "list", description = "Lists the complete savepoints of an application, oldest first.")
    static final class ListCommand implements Callable<Integer> {

        @Mixin
        AppOptions app;

        @Override
        public Integer call() {
            List<Manifest> all = new SavepointCatalog(app.config()).list();
            PrintWriter out = app.out();
            out.printf("%-28s %-24s %6s %10s %12s %s%n", "ID", "CREATED", "TASKS", "ENTRIES", "BYTES", "STOPPED");
            for (Manifest m : all) {
                out.printf(
                        "%-28s %-24s %6d %10d %12d %s%n",
                        m.id(),
                        Instant.ofEpochMilli(m.createdAt()),
                        m.tasks().size(),
                        m.records(),
                        m.bytes(),
                        m.stopped() ? "yes" : "no");
            }
            return Weir.OK;
        }
    }

    @Command(name = "describe", description = "Shows a savepoint's manifest: per task its input offsets and stores.")
    static final class Describe implements Callable<Integer> {

        @Mixin
        AppOptions app;

        @Option(names = "--id", paramLabel = "ID", required = true, description = "the savepoint")
        String id;

        @Option(names = "--json", description = "print the manifest as JSON")
        boolean json;

        @Override
        public Integer call() {
            Manifest m = find(app.cluster, app.id, id);
            PrintWriter out = app.out();
            if (json) {
                out.println(Json.pretty(m));
                return Weir.OK;
            }
            out.printf(
                    "savepoint %s of %s, created %s by Weir %s%s%n",
                    m.id(),
                    m.applicationId(),
                    Instant.ofEpochMilli(m.createdAt()),
                    m.weirVersion(),
                    m.stopped() ? ", application stopped after it" : "");
            out.printf(
                    "%d tasks, %d entries, %d bytes; topology %s%n",
                    m.tasks().size(), m.records(), m.bytes(), m.topology() == null ? "not recorded" : "recorded");
            for (Manifest.TaskEntry t : m.tasks()) {
                out.printf("task %s%n", t.task());
                t.offsets().forEach((tp, o) -> out.printf("  input %s offset %d%n", tp, o.offset()));
                for (ControlMessage.StoreCopy s : t.stores()) {
                    out.printf(
                            "  store %s (%s, key %s, value %s): %d entries, %d bytes, crc32 %08x%n",
                            s.name(), s.kind(), s.keySerde(), s.valueSerde(), s.records(), s.bytes(), s.crc32());
                }
            }
            return Weir.OK;
        }
    }

    @Command(
            name = "delete",
            description = "Deletes a savepoint: it is no longer listed or restorable, and its data"
                    + " is tombstoned so that the savepoints topic's compaction reclaims the space.")
    static final class Delete implements Callable<Integer> {

        @Mixin
        AppOptions app;

        @Option(names = "--id", paramLabel = "ID", required = true, description = "the savepoint")
        String id;

        @Override
        public Integer call() {
            find(app.cluster, app.id, id);
            SavepointCatalog.Deletion d = new SavepointCatalog(app.config()).delete(id);
            String topic = io.weir.internal.config.InternalTopic.SAVEPOINTS.of(app.id);
            PrintWriter out = app.out();
            out.println("deleted savepoint " + id + " of " + app.id + ": no longer listed or restorable");
            if (d.reclaimed()) {
                out.printf(
                        "tombstoned its %d data records (%d bytes of entries); the log cleaner removes them from"
                                + " %s once their segment closes (segment.ms, an hour), which reclaims the space%n",
                        d.tombstones(), d.bytes(), topic);
            } else {
                out.printf(
                        "space NOT reclaimed: %s has cleanup.policy=%s (created by an earlier Weir), so its %d data"
                                + " records (%d bytes of entries) stay until the topic is deleted%n",
                        topic, d.topicPolicy(), d.tombstones(), d.bytes());
            }
            return Weir.OK;
        }
    }

    @Command(
            name = "restore",
            description = "Loads a savepoint into a stopped application: the same one (--from-app"
                    + " omitted: roll back) or a new one (fork). Checks the stores against --topology first.")
    static final class Restore implements Callable<Integer> {

        @Mixin
        AppOptions app;

        @Mixin
        TopologyOptions topology;

        @Mixin
        RestoreOptions restore;

        @Option(
                names = "--from-app",
                paramLabel = "ID",
                description = "the application the savepoint was taken of (default: --app, the one it loads into,"
                        + " which must not be running)")
        String fromApp;

        @Option(names = "--id", paramLabel = "ID", required = true, description = "the savepoint")
        String id;

        @Override
        public Integer call() {
            io.weir.internal.topology.TopologyModel model = topology.model(app.id); // before the cluster is asked
            String source = fromApp != null ? fromApp : app.id;
            Manifest m = find(app.cluster, source, id);
            PrintWriter out = app.out();
            WeirConfig target = app.config();
            try {
                SavepointRestore.Result r = new SavepointRestore(target, model, line -> {
                            out.println(line);
                            out.flush();
                        })
                        .restore(new SavepointCatalog(app.cluster.config(source)), m, restore.options());
                out.printf(
                        "restored savepoint %s of %s into %s: %d entries, %d input offsets; start the application%n",
                        id, source, app.id, r.entries(), r.offsetsCommitted());
            } catch (IllegalStateException e) {
                throw new CommandFailedException(e.getMessage(), e);
            }
            return Weir.OK;
        }
    }

    static Manifest find(ClusterOptions cluster, String app, String id) {
        return new SavepointCatalog(cluster.config(app))
                .find(id)
                .orElseThrow(() -> new CommandFailedException(
                        "no complete savepoint " + id + " of " + app + " (weir savepoint list --app " + app + ")"));
    }
}
