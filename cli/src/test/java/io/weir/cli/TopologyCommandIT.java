package io.weir.cli;

import static io.weir.cli.WeirTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.cli.WeirTest.Outcome;
import io.weir.config.WeirConfig;
import io.weir.internal.topology.TopologyDescription;
import io.weir.processor.Stores;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code weir topology show|diff} against the record an application wrote when it started. */
class TopologyCommandIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.perClass();

    static final String APP = "topo-cli";
    static final String IN = "topo-cli-in";
    static final String AMOUNTS = "topo-cli-amounts";
    static final String OUT = "topo-cli-out";

    /** A stateless path (with a filter or not) and a processor with store {@code totals}. */
    static Topology topology(boolean filter, Serde<?> totalsValues) {
        TopologyBuilder b = new TopologyBuilder();
        var s = b.stream(Serdes.strings(), Serdes.strings(), IN);
        if (filter) {
            s = s.filter((k, v) -> v != null);
        }
        s.to(OUT);
        @SuppressWarnings("unchecked")
        Serde<Object> values = (Serde<Object>) totalsValues;
        b.addSource("amounts", Serdes.strings(), Serdes.strings(), AMOUNTS)
                .addProcessor("sum", () -> record -> {}, List.of("amounts"), List.of())
                .addStateStore(Stores.keyValueStore("totals", Serdes.strings(), values), "sum");
        return b.build();
    }

    /** The running version. */
    public static final class V1 implements Supplier<Topology> {
        @Override
        public Topology get() {
            return topology(false, Serdes.longs());
        }
    }

    /** V1 with a filter: safe. */
    public static final class WithFilter {
        public static Topology topology() {
            return TopologyCommandIT.topology(true, Serdes.longs());
        }
    }

    /** {@code totals} holding strings: needs a savepoint or reset. */
    public static final class StringTotals implements Supplier<Topology> {
        @Override
        public Topology get() {
            return topology(false, Serdes.strings());
        }
    }

    @BeforeAll
    static void topics() {
        KAFKA.client().createTopic(IN, 2);
        KAFKA.client().createTopic(AMOUNTS, 2);
        KAFKA.client().createTopic(OUT, 1);
    }

    private static Outcome weir(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--bootstrap-servers";
        all[args.length + 1] = KAFKA.bootstrapServers();
        return run(all);
    }

    private static void startAndStop(Topology topology) throws Exception {
        WeirConfig config = WeirConfig.builder()
                .applicationId(APP)
                .bootstrapServers(KAFKA.bootstrapServers())
                .stateDir(Files.createTempDirectory("weir-cli-test-"))
                .set("http.port", -1)
                .environment(Map.of())
                .build();
        try (WeirApp app = WeirApp.create(topology, config).start()) {
            app.close(Duration.ofSeconds(10));
        }
    }

    @Test
    void showsAndDiffsTheRecordedTopology() throws Exception {
        Outcome none = weir("topology", "show", "--app", APP);
        assertThat(none.code()).isEqualTo(Weir.FAILED);
        assertThat(none.err().strip())
                .isEqualTo("weir topology show: no topology recorded for " + APP + ": topic " + APP
                        + "-topology does not exist on " + KAFKA.bootstrapServers()
                        + " (instances record it when they start)");

        startAndStop(new V1().get());

        Outcome show = weir("topology", "show", "--app", APP);
        assertThat(show.code()).as(show.err()).isEqualTo(Weir.OK);
        // The one document: as the instance recorded it (and as its GET /topology serves it).
        String recorded = KAFKA.client()
                .readAllCommittedStrings(APP + "-topology", Duration.ofSeconds(20))
                .get(0)
                .value();
        assertThat(show.out().strip()).isEqualTo(recorded.strip());
        TopologyDescription shown = TopologyDescription.parse(show.out());
        assertThat(shown.applicationId()).isEqualTo(APP);
        assertThat(shown.store("totals").valueFormat()).isEqualTo("long");
        assertThat(shown.store("totals").changelogTopic()).isEqualTo(APP + "-totals-changelog");

        Outcome same = weir("topology", "diff", "--app", APP, "--topology", V1.class.getName());
        assertThat(same.code()).as(same.err()).isEqualTo(Weir.OK);
        assertThat(same.out()).contains("  no changes\n", "Verdict: SAFE\n");

        Outcome safe = weir("topology", "diff", "--app", APP, "--topology", WithFilter.class.getName());
        assertThat(safe.code()).as(safe.err()).isEqualTo(Weir.OK);
        assertThat(safe.out()).contains("  node filter-1: added\n", "Verdict: SAFE\n");

        Outcome unsafe = weir("topology", "diff", "--app", APP, "--topology", StringTotals.class.getName());
        assertThat(unsafe.code()).as(unsafe.err()).isEqualTo(Weir.FAILED);
        assertThat(unsafe.out())
                .contains(
                        "  store totals: value format long -> string\n",
                        "Verdict: NEEDS_SAVEPOINT_OR_RESET\n",
                        "  - store totals changed its value format (long -> string)");

        Outcome missingClass = weir("topology", "diff", "--app", APP, "--topology", "no.such.Topology");
        assertThat(missingClass.code()).isEqualTo(Weir.FAILED);
        assertThat(missingClass.err())
                .startsWith("weir topology diff: cannot load the topology class no.such.Topology");
    }
}
