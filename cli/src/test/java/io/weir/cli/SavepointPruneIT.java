package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.WeirApp;
import io.weir.cli.WeirTest.Outcome;
import io.weir.config.WeirConfig;
import io.weir.internal.savepoint.Manifest;
import io.weir.internal.savepoint.SavepointCatalog;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code weir savepoint prune} on a real broker: of five savepoints of a running word count (four
 * the chart's, one named by hand), {@code --keep 2 --prefix periodic- --prefix pre-upgrade-} with
 * the StatefulSet marked by an upgrade keeps the newest two and the marked one, deletes the rest of
 * its prefixes, and never touches the hand-named one; {@code --dry-run} first deletes nothing; a
 * second run deletes nothing more; what is kept still restores.
 */
class SavepointPruneIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration CATCH_UP = Duration.ofMinutes(1);

    @AfterEach
    void clearProperties() {
        System.clearProperty(SavepointTopologies.INPUT);
        System.clearProperty(SavepointTopologies.OUTPUT);
    }

    private static List<String> ids(String app) {
        WeirConfig config = WeirConfig.builder()
                .applicationId(app)
                .bootstrapServers(KAFKA.bootstrapServers())
                .environment(Map.of())
                .build();
        return new SavepointCatalog(config).list().stream().map(Manifest::id).toList();
    }

    @Test
    void keepsTheNewestTheMarkedAndTheUncoveredAndSaysWhy() throws Exception {
        String input = KAFKA.uniqueTopic("prune-lines", 3);
        String output = KAFKA.uniqueTopic("prune-counts", 3);
        System.setProperty(SavepointTopologies.INPUT, input);
        System.setProperty(SavepointTopologies.OUTPUT, output);
        String app = "prune-" + input;
        String bootstrap = KAFKA.bootstrapServers();
        List<String> lines = WordCounts.lines(0, 300, 30);
        WordCounts.produce(KAFKA, input, lines);
        List<String> taken = List.of(
                "pre-upgrade-r2-a", "manual-keep-me", "periodic-b", "pre-upgrade-r3-c", "periodic-d", "periodic-e");
        try (WeirApp app1 = WordCounts.start(KAFKA, new SavepointTopologies.Counts(), app);
                MockKubernetes kubernetes = new MockKubernetes()) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(WordCounts.counts(lines)), CATCH_UP);
            for (String id : taken) {
                Outcome created = WeirTest.runShown("savepoint", "create", "--app", app, "--id", id, "-b", bootstrap);
                assertThat(created.code()).as(created.err()).isEqualTo(Weir.OK);
            }
            kubernetes.createStatefulSet("orders-weir", 2);
            kubernetes
                    .api()
                    .annotateStatefulSet(
                            "orders-weir",
                            UpgradeMark.ANNOTATION,
                            new UpgradeMark("pre-upgrade-r2-a", 2, UpgradeMark.Phase.restored).encode());
            List<String> prune = new ArrayList<>(List.of(
                    "savepoint",
                    "prune",
                    "--app",
                    app,
                    "-b",
                    bootstrap,
                    "--statefulset",
                    "orders-weir",
                    "--prefix",
                    "periodic-",
                    "--prefix",
                    "pre-upgrade-",
                    "--keep",
                    "2",
                    "--max-age",
                    "1d"));
            prune.addAll(List.of(kubernetes.options()));

            List<String> dry = new ArrayList<>(prune);
            dry.add("--dry-run");
            Outcome planned = WeirTest.runShown(dry.toArray(String[]::new));
            assertThat(planned.code()).as(planned.err()).isEqualTo(Weir.OK);
            assertThat(planned.out())
                    .contains("would delete", "dry run of " + app + ": 2 savepoint(s) would be deleted");
            assertThat(ids(app)).containsExactlyInAnyOrderElementsOf(taken);

            Outcome pruned = WeirTest.runShown(prune.toArray(String[]::new));

            assertThat(pruned.code()).as(pruned.err()).isEqualTo(Weir.OK);
            assertThat(pruned.out().lines())
                    .anySatisfy(
                            l -> assertThat(l).startsWith("keep").contains("periodic-e", "the newest: never deleted"))
                    .anySatisfy(l -> assertThat(l).startsWith("keep").contains("periodic-d", "among the newest 2"))
                    .anySatisfy(l -> assertThat(l)
                            .startsWith("keep")
                            .contains("pre-upgrade-r2-a", "taken by the last savepoint upgrade"))
                    .anySatisfy(
                            l -> assertThat(l).startsWith("delete").contains("pre-upgrade-r3-c", "beyond the newest 2"))
                    .anySatisfy(l -> assertThat(l).startsWith("delete").contains("periodic-b", "beyond the newest 2"))
                    .noneSatisfy(l -> assertThat(l).contains("manual-keep-me"));
            assertThat(ids(app))
                    .containsExactlyInAnyOrder("pre-upgrade-r2-a", "manual-keep-me", "periodic-d", "periodic-e");

            Outcome again = WeirTest.runShown(prune.toArray(String[]::new));
            assertThat(again.out()).contains("0 savepoint(s) deleted");
        }

        // What is kept restores: the marked savepoint into a fork that counts exactly what it held.
        String fork = app + "-fork";
        Outcome restored = WeirTest.runShown(
                "savepoint",
                "restore",
                "--app",
                fork,
                "--from-app",
                app,
                "--id",
                "pre-upgrade-r2-a",
                "--topology",
                SavepointTopologies.Counts.class.getName(),
                "-b",
                bootstrap);
        assertThat(restored.code()).as(restored.err()).isEqualTo(Weir.OK);
        assertThat(restored.out()).contains("restored savepoint pre-upgrade-r2-a");
    }
}
