package io.weir.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.internal.config.WeirVersion;
import io.weir.internal.topology.TopologyAccess;
import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyDiff;
import io.weir.samples.common.ServedSample;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every sample names a class the {@code weir} CLI loads its topology from ({@code --topology CLASS}:
 * a {@code public static Topology topology()}, the convention the starter follows too), and what
 * that class gives is what the sample runs.
 */
class TopologyProvidersTest {

    /** Each sample and the class {@code weir ... --topology} names for it (the README's table). */
    static final Map<String, String> PROVIDERS = Map.of(
            "temperature-alerts", "io.weir.samples.alerts.TemperatureAlerts",
            "word-count", "io.weir.samples.wordcount.WordCount",
            "keyed-counter", "io.weir.samples.counter.KeyedCounter",
            "sensor-sums", "io.weir.samples.sensors.SensorSums",
            "click-sessions", "io.weir.samples.sessions.ClickSessions",
            "hourly-counts", "io.weir.samples.hourly.HourlyCounts",
            "ysb", "io.weir.samples.ysb.Ysb",
            "fraud-detection", "io.weir.samples.fraud.FraudDetection",
            "order-pricing", "io.weir.samples.pricing.OrderPricing");

    @Test
    void everySampleHasAProviderTheCliLoads() throws Exception {
        assertThat(PROVIDERS.keySet()).containsExactlyInAnyOrderElementsOf(Samples.names());
        for (String className : PROVIDERS.values()) {
            assertThat(load(className)).as(className).isNotNull();
        }
        assertThat(load("io.weir.samples.wordcount.WordCountV2")).isNotNull();
    }

    @Test
    void aServedSamplesProviderGivesTheTopologyServeRuns() throws Exception {
        for (ServedSample s : ServedSamples.all().values()) {
            Topology served = s.topology().apply(s.inputTopic(), s.outputTopic());
            assertThat(describe(load(PROVIDERS.get(s.name())))).as(s.name()).isEqualTo(describe(served));
        }
        ServedSample wordCount = ServedSamples.all().get("word-count");
        assertThat(describe(load("io.weir.samples.wordcount.WordCountV2")))
                .isEqualTo(describe(
                        wordCount.variants().get("v2").apply(wordCount.inputTopic(), wordCount.outputTopic())));
    }

    @Test
    void wordCountV2ChangesTheStateSoTheDiffAsksForASavepoint() throws Exception {
        TopologyDiff diff = TopologyDiff.between(
                describeModel(load("io.weir.samples.wordcount.WordCount")),
                describeModel(load("io.weir.samples.wordcount.WordCountV2")));
        assertThat(diff.verdict()).isEqualTo(TopologyDiff.Verdict.NEEDS_SAVEPOINT_OR_RESET);
        assertThat(diff.report()).contains("store word-counts was removed (or renamed)", "store word-totals: added");
    }

    /** As the CLI does it (TopologyOptions): a public static no-argument method returning a Topology. */
    private static Topology load(String className) throws Exception {
        Method m = Class.forName(className).getMethod("topology");
        assertThat(Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()))
                .as(className)
                .isTrue();
        assertThat(m.getReturnType()).isEqualTo(Topology.class);
        return (Topology) m.invoke(null);
    }

    private static String describe(Topology t) {
        return describeModel(t).toJson();
    }

    private static TopologyDescription describeModel(Topology t) {
        return TopologyDescription.of(TopologyAccess.model(t, "app"), "app", WeirVersion.current());
    }
}
